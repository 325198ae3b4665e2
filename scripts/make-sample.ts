/**
 * Builds the small sample the README's first command mines: the first documents of the official
 * WMT23 ru-en XML (news domain), cut at document boundaries so the file stays valid WMT XML.
 * Usage: node dist/scripts/make-sample.js IN.xml[.gz] OUT.xml.gz [NDOCS=12] [DOMAIN=news], e.g.
 *   node dist/scripts/make-sample.js ../shared/data/wmt/wmt23/xml/wmttest2023.ru-en.all.xml.gz data/sample/wmttest2023.ru-en.sample.xml.gz 12
 */
import { readText } from "../src/io/lines.js";
import { writeFileAtomic } from "../src/io/atomic.js";
import { parseArgs } from "./args.js";

const { args } = parseArgs({
  name: "make-sample",
  summary: "Builds the README's sample: the first documents of one domain of a WMT XML test set, cut at document boundaries.",
  options: {},
  positionals: [
    { name: "IN.xml[.gz]", description: "the WMT XML test set" },
    { name: "OUT.xml.gz", description: "the sample to write" },
    { name: "NDOCS", description: "documents to keep", optional: true, kind: "int", defaultText: "12" },
    { name: "DOMAIN", description: "the domain of the documents kept", optional: true, defaultText: "news" },
  ],
});
const [input, output, nDocs = "12", domain = "news"] = args as [string, string, string?, string?];
const xml = readText(input);
const first = xml.indexOf("<doc ");
const head = xml.slice(0, first);
const docs: string[] = [];
const re = /<doc [^>]*>[\s\S]*?<\/doc>/g;
for (let m = re.exec(xml); m && docs.length < Number(nDocs); m = re.exec(xml)) {
  if (m[0].slice(0, 200).includes(`domain="${domain}"`) && !m[0].slice(0, 200).includes("testsuite=")) docs.push(m[0]);
}
const tailStart = xml.lastIndexOf("</doc>") + "</doc>".length;
writeFileAtomic(output, `${head}${docs.join("\n    ")}${xml.slice(tailStart)}`);
process.stderr.write(`wrote ${docs.length} documents to ${output}\n`);
