/**
 * Hand-written closed-class tables: personal, possessive and demonstrative pronouns and articles of
 * the eight languages, with every analysis each form can have. CTXPRO's rules hinge on exactly these
 * forms (it/they, il/elle, er/sie/es, его/её, ...), and a few tens of thousands of training tokens miss
 * many of them (Polish niej, Russian ему), so the tagger is constrained to these analyses.
 *
 * Format, one entry per line: `forms: UPOS lemma key=v1,v2 ...`, keys c(ase) g(ender) n(umber)
 * p(erson) t(PronType) poss(=Yes). A comma list expands to one analysis per value (`+` is a literal comma: UD's Case=Acc,Dat); several lines
 * for one form add analyses. Conventions follow each UD treebank (checked by scripts/eval-morph.ts).
 */

export interface Analysis {
  upos: string;
  lemma: string;
  feats: Record<string, string>;
}

const KEY: Record<string, string> = { c: "Case", g: "Gender", n: "Number", p: "Person", t: "PronType", poss: "Poss" };

const TABLES: Record<string, string> = {
  en: `
i: PRON I c=Nom n=Sing p=1 t=Prs
me: PRON I c=Acc n=Sing p=1 t=Prs
my: PRON my c=Gen n=Sing p=1 t=Prs poss=Yes
mine: PRON my n=Sing p=1 t=Prs poss=Yes
myself: PRON myself c=Acc n=Sing p=1 t=Prs,Emp
you: PRON you c=Nom,Acc p=2 t=Prs
your: PRON your c=Gen p=2 t=Prs poss=Yes
yours: PRON your p=2 t=Prs poss=Yes
yourself: PRON yourself c=Acc n=Sing p=2 t=Prs,Emp
yourselves: PRON yourself c=Acc n=Plur p=2 t=Prs,Emp
he: PRON he c=Nom g=Masc n=Sing p=3 t=Prs
him: PRON he c=Acc g=Masc n=Sing p=3 t=Prs
his: PRON his c=Gen g=Masc n=Sing p=3 t=Prs poss=Yes
his: PRON his g=Masc n=Sing p=3 t=Prs poss=Yes
himself: PRON himself c=Acc g=Masc n=Sing p=3 t=Prs,Emp
she: PRON she c=Nom g=Fem n=Sing p=3 t=Prs
her: PRON she c=Acc g=Fem n=Sing p=3 t=Prs
her: PRON her c=Gen g=Fem n=Sing p=3 t=Prs poss=Yes
hers: PRON her g=Fem n=Sing p=3 t=Prs poss=Yes
herself: PRON herself c=Acc g=Fem n=Sing p=3 t=Prs,Emp
it: PRON it c=Nom,Acc g=Neut n=Sing p=3 t=Prs
its: PRON its c=Gen g=Neut n=Sing p=3 t=Prs poss=Yes
itself: PRON itself c=Acc g=Neut n=Sing p=3 t=Prs,Emp
we: PRON we c=Nom n=Plur p=1 t=Prs
us: PRON we c=Acc n=Plur p=1 t=Prs
our: PRON we c=Gen n=Plur p=1 t=Prs poss=Yes
ours: PRON we n=Plur p=1 t=Prs poss=Yes
ourselves: PRON ourselves c=Acc n=Plur p=1 t=Prs,Emp
they: PRON they c=Nom n=Plur p=3 t=Prs
them: PRON they c=Acc n=Plur p=3 t=Prs
their: PRON their c=Gen n=Plur p=3 t=Prs poss=Yes
theirs: PRON their n=Plur p=3 t=Prs poss=Yes
themselves: PRON themselves c=Acc n=Plur p=3 t=Prs,Emp
this: DET this n=Sing t=Dem
this: PRON this n=Sing t=Dem
that: DET that n=Sing t=Dem
that: PRON that n=Sing t=Dem
that: PRON that t=Rel
that: SCONJ that
these: DET this n=Plur t=Dem
these: PRON this n=Plur t=Dem
those: DET that n=Plur t=Dem
those: PRON that n=Plur t=Dem
the: DET the t=Art
a,an: DET a t=Art
`,
  de: `
ich: PRON ich c=Nom n=Sing p=1 t=Prs
mich: PRON ich c=Acc n=Sing p=1 t=Prs
mir: PRON ich c=Dat n=Sing p=1 t=Prs
du: PRON du c=Nom n=Sing p=2 t=Prs
dich: PRON du c=Acc n=Sing p=2 t=Prs
dir: PRON du c=Dat n=Sing p=2 t=Prs
er: PRON er c=Nom g=Masc n=Sing p=3 t=Prs
ihn: PRON er c=Acc g=Masc n=Sing p=3 t=Prs
ihm: PRON er c=Dat g=Masc,Neut n=Sing p=3 t=Prs
sie: PRON sie c=Nom,Acc g=Fem n=Sing p=3 t=Prs
sie: PRON sie c=Nom,Acc n=Plur p=3 t=Prs
es: PRON es c=Nom,Acc g=Neut n=Sing p=3 t=Prs
ihr: PRON ihr c=Nom n=Plur p=2 t=Prs
ihr: PRON sie c=Dat g=Fem n=Sing p=3 t=Prs
wir: PRON wir c=Nom n=Plur p=1 t=Prs
uns: PRON wir c=Acc,Dat n=Plur p=1 t=Prs
euch: PRON ihr c=Acc,Dat n=Plur p=2 t=Prs
ihnen: PRON sie c=Dat n=Plur p=3 t=Prs
sie: PRON Sie c=Nom,Acc p=2 t=Prs
ihnen: PRON Sie c=Dat p=2 t=Prs
`,
  es: `
yo: PRON yo c=Nom n=Sing p=1 t=Prs
me: PRON yo c=Acc+Dat n=Sing p=1 t=Prs
mí: PRON yo c=Acc n=Sing p=1 t=Prs
tú: PRON tú c=Nom n=Sing p=2 t=Prs
te: PRON tú c=Acc+Dat n=Sing p=2 t=Prs
ti: PRON tú c=Acc n=Sing p=2 t=Prs
conmigo: PRON yo c=Acc n=Sing p=1 t=Prs
contigo: PRON tú c=Acc n=Sing p=2 t=Prs
usted: PRON usted c=Acc+Nom n=Sing p=2 t=Prs
ustedes: PRON usted c=Acc+Nom n=Plur p=2 t=Prs
él: PRON él c=Acc+Nom g=Masc n=Sing p=3 t=Prs
ella: PRON él c=Acc+Nom g=Fem n=Sing p=3 t=Prs
ello: PRON él c=Acc+Nom g=Masc n=Sing p=3 t=Prs
ellos: PRON él c=Acc+Nom g=Masc n=Plur p=3 t=Prs
ellas: PRON él c=Acc+Nom g=Fem n=Plur p=3 t=Prs
lo: PRON él c=Acc g=Masc n=Sing p=3 t=Prs
lo: DET el g=Neut n=Sing t=Art
la: PRON él c=Acc g=Fem n=Sing p=3 t=Prs
la: DET el g=Fem n=Sing t=Art
los: PRON él c=Acc g=Masc n=Plur p=3 t=Prs
los: DET el g=Masc n=Plur t=Art
las: PRON él c=Acc g=Fem n=Plur p=3 t=Prs
las: DET el g=Fem n=Plur t=Art
le: PRON él c=Dat n=Sing p=3 t=Prs
les: PRON él c=Dat n=Plur p=3 t=Prs
se: PRON él c=Acc+Dat p=3 t=Prs
nosotros: PRON yo c=Acc+Nom g=Masc n=Plur p=1 t=Prs
nosotras: PRON yo c=Acc+Nom g=Fem n=Plur p=1 t=Prs
vosotros: PRON tú c=Acc+Nom g=Masc n=Plur p=2 t=Prs
vosotras: PRON tú c=Acc+Nom g=Fem n=Plur p=2 t=Prs
nos: PRON yo c=Acc+Dat n=Plur p=1 t=Prs
os: PRON tú c=Acc+Dat n=Plur p=2 t=Prs
el: DET el g=Masc n=Sing t=Art
un: DET uno g=Masc n=Sing t=Art
una: DET uno g=Fem n=Sing t=Art
unos: DET uno g=Masc n=Plur t=Art
unas: DET uno g=Fem n=Plur t=Art
un: NUM uno g=Masc n=Sing
una: NUM uno g=Fem n=Sing
una: PRON uno g=Fem n=Sing t=Ind
uno: PRON uno g=Masc n=Sing t=Ind
unos: PRON uno g=Masc n=Plur t=Ind
unas: PRON uno g=Fem n=Plur t=Ind
`,
  fr: `
je,j': PRON il n=Sing p=1 t=Prs
me,m': PRON il n=Sing p=1 t=Prs
moi: PRON moi n=Sing p=1 t=Prs
tu: PRON il n=Sing p=2 t=Prs
te,t': PRON il n=Sing p=2 t=Prs
toi: PRON toi n=Sing p=2 t=Prs
il: PRON il g=Masc n=Sing p=3 t=Prs
elle: PRON il g=Fem n=Sing p=3 t=Prs
ils: PRON il g=Masc n=Plur p=3 t=Prs
elles: PRON il g=Fem n=Plur p=3 t=Prs
lui: PRON lui n=Sing p=3 t=Prs
lui: PRON lui g=Masc n=Sing p=3 t=Prs
eux: PRON lui g=Masc n=Plur p=3 t=Prs
le: PRON le g=Masc n=Sing p=3 t=Prs
le: DET le g=Masc n=Sing t=Art
la: PRON le g=Fem n=Sing p=3 t=Prs
la: DET le g=Fem n=Sing t=Art
l': PRON le n=Sing p=3 t=Prs
l': DET le n=Sing t=Art
les: PRON le n=Plur p=3 t=Prs
les: DET le n=Plur t=Art
leur: PRON lui n=Plur p=3 t=Prs
leur: DET son n=Sing t=Prs poss=Yes
leurs: DET son n=Plur t=Prs poss=Yes
nous: PRON il n=Plur p=1 t=Prs
vous: PRON il n=Plur p=2 t=Prs
on: PRON il g=Masc n=Sing p=3 t=Ind
un: DET un g=Masc n=Sing t=Art
une: DET un g=Fem n=Sing t=Art
un: PRON un g=Masc n=Sing p=3 t=Ind
une: PRON un g=Fem n=Sing p=3 t=Ind
un: NUM un n=Sing
un: NUM un g=Masc n=Sing
une: NUM un g=Fem n=Sing
`,
  it: `
io: PRON io n=Sing p=1 t=Prs
mi: PRON mi n=Sing p=1 t=Prs
me: PRON me n=Sing p=1 t=Prs
tu: PRON tu n=Sing p=2 t=Prs
ti: PRON ti n=Sing p=2 t=Prs
te: PRON te n=Sing p=2 t=Prs
lui: PRON lui g=Masc n=Sing p=3 t=Prs
lei: PRON lei g=Fem n=Sing p=3 t=Prs
lei: PRON lei n=Sing p=3 t=Prs
egli: PRON egli g=Masc n=Sing p=3 t=Prs
ella: PRON ella g=Fem n=Sing p=3 t=Prs
esso: PRON esso g=Masc n=Sing p=3 t=Prs
essa: PRON essa g=Fem n=Sing p=3 t=Prs
essi: PRON essi g=Masc n=Plur p=3 t=Prs
esse: PRON esse g=Fem n=Plur p=3 t=Prs
lo: PRON lo g=Masc n=Sing p=3 t=Prs
lo: DET il g=Masc n=Sing t=Art
la: PRON la g=Fem n=Sing p=3 t=Prs
la: DET il g=Fem n=Sing t=Art
l': PRON lo n=Sing p=3 t=Prs
l': DET il n=Sing t=Art
li: PRON li g=Masc n=Plur p=3 t=Prs
le: PRON le g=Fem n=Plur p=3 t=Prs
le: PRON le g=Fem n=Sing p=3 t=Prs
le: DET il g=Fem n=Plur t=Art
gli: PRON gli g=Masc n=Sing p=3 t=Prs
gli: DET il g=Masc n=Plur t=Art
loro: PRON loro n=Plur p=3 t=Prs
loro: DET loro t=Prs poss=Yes
noi: PRON noi n=Plur p=1 t=Prs
voi: PRON voi n=Plur p=2 t=Prs
ci: PRON ci n=Plur p=1 t=Prs
vi: PRON vi n=Plur p=2 t=Prs
ci,vi: PRON ci t=Prs
vi: ADV vi
ci: ADV ci
il: DET il g=Masc n=Sing t=Art
i: DET il g=Masc n=Plur t=Art
un: DET uno g=Masc n=Sing t=Art
uno: DET uno g=Masc n=Sing t=Art
una,un': DET uno g=Fem n=Sing t=Art
uno: PRON uno g=Masc n=Sing t=Ind
una: PRON uno g=Fem n=Sing t=Ind
un,una,uno: NUM uno
`,
  pt: `
eu: PRON eu c=Nom n=Sing p=1 t=Prs g=Masc,Fem
me: PRON eu c=Acc,Dat n=Sing p=1 t=Prs g=Masc,Fem
mim: PRON eu n=Sing p=1 t=Prs
tu: PRON tu c=Nom n=Sing p=2 t=Prs
te: PRON tu c=Acc,Dat n=Sing p=2 t=Prs
ti: PRON tu n=Sing p=2 t=Prs
comigo: PRON eu n=Sing p=1 t=Prs
contigo: PRON tu n=Sing p=2 t=Prs
connosco,conosco: PRON nós n=Plur p=1 t=Prs
convosco: PRON vós n=Plur p=2 t=Prs
você: PRON você c=Nom n=Sing p=3 t=Prs
vocês: PRON você c=Nom n=Plur p=3 t=Prs
ele: PRON ele c=Nom g=Masc n=Sing p=3 t=Prs
ela: PRON ele c=Nom g=Fem n=Sing p=3 t=Prs
eles: PRON ele c=Nom g=Masc n=Plur p=3 t=Prs
elas: PRON ele c=Nom g=Fem n=Plur p=3 t=Prs
ele: PRON ele g=Masc n=Sing p=3 t=Prs
ela: PRON ele g=Fem n=Sing p=3 t=Prs
eles: PRON ele g=Masc n=Plur p=3 t=Prs
elas: PRON ele g=Fem n=Plur p=3 t=Prs
o: PRON o t=Dem g=Masc n=Sing
a: PRON o t=Dem g=Fem n=Sing
os: PRON o t=Dem g=Masc n=Plur
as: PRON o t=Dem g=Fem n=Plur
o: DET o t=Dem g=Masc n=Sing
a,as: DET o t=Art
a: SCONJ a
o: PRON ele c=Acc g=Masc n=Sing p=3 t=Prs
o: DET o g=Masc n=Sing t=Art
a: PRON ele c=Acc g=Fem n=Sing p=3 t=Prs
a: DET o g=Fem n=Sing t=Art
a: ADP a
os: PRON ele c=Acc g=Masc n=Plur p=3 t=Prs
os: DET o g=Masc n=Plur t=Art
as: PRON ele c=Acc g=Fem n=Plur p=3 t=Prs
as: DET o g=Fem n=Plur t=Art
lo: PRON ele c=Acc g=Masc n=Sing p=3 t=Prs
la: PRON ele c=Acc g=Fem n=Sing p=3 t=Prs
los: PRON ele c=Acc g=Masc n=Plur p=3 t=Prs
las: PRON ele c=Acc g=Fem n=Plur p=3 t=Prs
lhe: PRON ele c=Dat n=Sing p=3 t=Prs g=Masc,Fem
lhes: PRON ele c=Dat n=Plur p=3 t=Prs g=Masc,Fem
se: PRON se c=Acc,Dat p=3 t=Prs
se: PRON se c=Acc t=Prs
se: PRON se c=Acc g=Masc,Fem n=Sing,Plur p=3 t=Prs
se: SCONJ se
nós: PRON nós c=Nom n=Plur p=1 t=Prs g=Masc,Fem
nos: PRON nós c=Acc,Dat n=Plur p=1 t=Prs
vós: PRON vós c=Nom n=Plur p=2 t=Prs
vos: PRON vós c=Acc,Dat n=Plur p=2 t=Prs
um: DET um g=Masc n=Sing t=Art
uma: DET um g=Fem n=Sing t=Art
um,uma: NUM um
`,
  pl: `
ja: PRON ja c=Nom n=Sing p=1 t=Prs g=Masc,Fem
mnie: PRON ja c=Gen,Acc,Dat,Loc n=Sing p=1 t=Prs g=Masc,Fem
mi: PRON ja c=Dat n=Sing p=1 t=Prs g=Masc,Fem
mną: PRON ja c=Ins n=Sing p=1 t=Prs g=Masc,Fem
ty: PRON ty c=Nom n=Sing p=2 t=Prs g=Masc,Fem
ciebie: PRON ty c=Gen,Acc n=Sing p=2 t=Prs g=Masc,Fem
cię: PRON ty c=Gen,Acc n=Sing p=2 t=Prs g=Masc,Fem
tobie: PRON ty c=Dat,Loc n=Sing p=2 t=Prs g=Masc,Fem
ci: PRON ty c=Dat n=Sing p=2 t=Prs g=Masc,Fem
ci: DET ten c=Nom g=Masc n=Plur t=Dem
tobą: PRON ty c=Ins n=Sing p=2 t=Prs g=Masc,Fem
on: PRON on c=Nom g=Masc n=Sing p=3 t=Prs
ona: PRON on c=Nom g=Fem n=Sing p=3 t=Prs
ono: PRON on c=Nom g=Neut n=Sing p=3 t=Prs
jego: PRON on c=Gen,Acc g=Masc n=Sing p=3 t=Prs
jego: PRON on c=Gen g=Neut n=Sing p=3 t=Prs
niego: PRON on c=Gen,Acc g=Masc n=Sing p=3 t=Prs
niego: PRON on c=Gen g=Neut n=Sing p=3 t=Prs
go: PRON on c=Gen,Acc g=Masc n=Sing p=3 t=Prs
go: PRON on c=Gen g=Neut n=Sing p=3 t=Prs
jemu,mu,niemu: PRON on c=Dat g=Masc,Neut n=Sing p=3 t=Prs
nim: PRON on c=Ins,Loc g=Masc,Neut n=Sing p=3 t=Prs
je: PRON on c=Acc g=Neut n=Sing p=3 t=Prs
je: PRON on c=Acc n=Plur p=3 t=Prs
nie: PRON on c=Acc g=Neut n=Sing p=3 t=Prs
nie: PRON on c=Acc n=Plur p=3 t=Prs
nie: PART nie
nie: CCONJ nie
nie: PRON on c=Acc g=Masc,Fem n=Plur p=3 t=Prs
je: PRON on c=Acc g=Masc,Fem,Neut n=Plur p=3 t=Prs
jej,niej: PRON on c=Gen,Dat,Loc g=Fem n=Sing p=3 t=Prs
ją,nią: PRON on c=Acc,Ins g=Fem n=Sing p=3 t=Prs
my: PRON my c=Nom n=Plur p=1 t=Prs g=Masc,Fem
nas: PRON my c=Gen,Acc,Loc n=Plur p=1 t=Prs g=Masc,Fem
nam: PRON my c=Dat n=Plur p=1 t=Prs g=Masc,Fem
nami: PRON my c=Ins n=Plur p=1 t=Prs g=Masc,Fem
wy: PRON wy c=Nom n=Plur p=2 t=Prs g=Masc,Fem
was: PRON wy c=Gen,Acc,Loc n=Plur p=2 t=Prs g=Masc,Fem
wam: PRON wy c=Dat n=Plur p=2 t=Prs g=Masc,Fem
wami: PRON wy c=Ins n=Plur p=2 t=Prs g=Masc,Fem
oni: PRON on c=Nom g=Masc n=Plur p=3 t=Prs
one: PRON on c=Nom g=Fem,Neut n=Plur p=3 t=Prs
ich,nich: PRON on c=Gen,Acc,Loc g=Masc,Fem,Neut n=Plur p=3 t=Prs
im,nim: PRON on c=Dat g=Masc,Fem,Neut n=Plur p=3 t=Prs
nimi: PRON on c=Ins g=Masc,Fem,Neut n=Plur p=3 t=Prs
kto: PRON kto c=Nom g=Masc n=Sing t=Int
kogo: PRON kto c=Gen,Acc g=Masc n=Sing t=Int
komu: PRON kto c=Dat g=Masc n=Sing t=Int
kim: PRON kto c=Ins,Loc g=Masc n=Sing t=Int
ktoś: PRON ktoś c=Nom g=Masc n=Sing t=Ind
kogoś: PRON ktoś c=Gen,Acc g=Masc n=Sing t=Ind
komuś: PRON ktoś c=Dat g=Masc n=Sing t=Ind
kimś: PRON ktoś c=Ins,Loc g=Masc n=Sing t=Ind
nikt: PRON nikt c=Nom g=Masc n=Sing t=Neg
nikogo: PRON nikt c=Gen,Acc g=Masc n=Sing t=Neg
nikomu: PRON nikt c=Dat g=Masc n=Sing t=Neg
nikim: PRON nikt c=Ins,Loc g=Masc n=Sing t=Neg
czego: PRON co c=Gen g=Neut n=Sing t=Int
czego: ADV czego
czym: PRON co c=Ins,Loc g=Neut n=Sing t=Int
czegoś: PRON coś c=Gen g=Neut n=Sing t=Ind
czemuś: PRON coś c=Dat g=Neut n=Sing t=Ind
czymś: PRON coś c=Ins,Loc g=Neut n=Sing t=Ind
niczego: PRON nic c=Gen g=Neut n=Sing t=Neg
niczemu: PRON nic c=Dat g=Neut n=Sing t=Neg
niczym: PRON nic c=Ins,Loc g=Neut n=Sing t=Neg
`,
  ru: `
я: PRON я c=Nom n=Sing p=1
меня: PRON я c=Gen,Acc n=Sing p=1
мне: PRON я c=Dat,Loc n=Sing p=1
мной,мною: PRON я c=Ins n=Sing p=1
ты: PRON ты c=Nom n=Sing p=2
тебя: PRON ты c=Gen,Acc n=Sing p=2
тебе: PRON ты c=Dat,Loc n=Sing p=2
тобой,тобою: PRON ты c=Ins n=Sing p=2
он: PRON он c=Nom g=Masc n=Sing p=3
она: PRON она c=Nom g=Fem n=Sing p=3
оно: PRON оно c=Nom g=Neut n=Sing p=3
они: PRON они c=Nom n=Plur p=3
его,него: PRON он c=Gen,Acc g=Masc,Neut n=Sing p=3
ему,нему: PRON он c=Dat g=Masc,Neut n=Sing p=3
им,ним: PRON он c=Ins g=Masc,Neut n=Sing p=3
им,ним: PRON они c=Dat n=Plur p=3
нём,нем: PRON он c=Loc g=Masc,Neut n=Sing p=3
её,ее,неё,нее: PRON она c=Gen,Acc g=Fem n=Sing p=3
ей,ней: PRON она c=Dat,Ins,Loc g=Fem n=Sing p=3
ею,нею: PRON она c=Ins g=Fem n=Sing p=3
их,них: PRON они c=Gen,Acc,Loc n=Plur p=3
ими,ними: PRON они c=Ins n=Plur p=3
его,её,ее,их: DET его
мы: PRON мы c=Nom n=Plur p=1
нас: PRON мы c=Gen,Acc,Loc n=Plur p=1
нам: PRON мы c=Dat n=Plur p=1
нами: PRON мы c=Ins n=Plur p=1
вы: PRON вы c=Nom n=Plur p=2
вас: PRON вы c=Gen,Acc,Loc n=Plur p=2
вам: PRON вы c=Dat n=Plur p=2
вами: PRON вы c=Ins n=Plur p=2
`,
};

export type ClosedClassTable = Map<string, Analysis[]>;

function parseTable(src: string): ClosedClassTable {
  const out: ClosedClassTable = new Map();
  for (const raw of src.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(": ");
    const forms = line.slice(0, colon).split(",");
    const [upos, lemma, ...kvs] = line.slice(colon + 2).split(/\s+/);
    let analyses: Record<string, string>[] = [{}];
    for (const kv of kvs) {
      const [k, v] = kv.split("=");
      const key = KEY[k!];
      if (!key || !v) throw new Error(`closed-class table: bad feature '${kv}' in '${line}'`);
      analyses = analyses.flatMap((a) => v.split(",").map((x) => ({ ...a, [key]: x.replace(/\+/g, ",") })));
    }
    for (const f of forms) {
      const list = out.get(f) ?? [];
      for (const feats of analyses) list.push({ upos: upos!, lemma: lemma!, feats });
      out.set(f, list);
    }
  }
  return out;
}

const cache = new Map<string, ClosedClassTable>();

/** The closed-class table of a language (lowercase form -> analyses); empty for unknown languages. */
export function closedClassTable(lang: string): ClosedClassTable {
  let t = cache.get(lang);
  if (!t) {
    t = parseTable(TABLES[lang] ?? "");
    cache.set(lang, t);
  }
  return t;
}
