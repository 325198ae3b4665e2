/**
 * Throughput of several configurations (e.g. thread counts) on the same batches, measured in turns:
 * round r runs batches r*steps .. (r+1)*steps-1 on each configuration in order, so a change in the
 * machine's load hits them alike. Per configuration: items and tokens done, wall and CPU seconds of the
 * process (all its threads), and the peak RSS seen while it ran.
 */
export interface TurnStats {
  items: number;
  tokens: number;
  wall: number;
  cpu: number;
  peakRss: number;
}

export async function measureInTurns<C, B>(configs: C[], batches: B[], rounds: number, run: (config: C, batch: B) => Promise<void>, size: (batch: B) => { items: number; tokens: number }): Promise<Map<C, TurnStats>> {
  const steps = Math.floor(batches.length / rounds);
  const stats = new Map(configs.map((c) => [c, { items: 0, tokens: 0, wall: 0, cpu: 0, peakRss: 0 }]));
  for (let r = 0; r < rounds; r++)
    for (const c of configs) {
      const st = stats.get(c)!;
      const part = batches.slice(r * steps, (r + 1) * steps);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (const b of part) {
        await run(c, b);
        st.peakRss = Math.max(st.peakRss, process.memoryUsage().rss);
      }
      st.wall += (performance.now() - t0) / 1000;
      const u = process.cpuUsage(cpu0);
      st.cpu += (u.user + u.system) / 1e6;
      for (const b of part) {
        const n = size(b);
        st.items += n.items;
        st.tokens += n.tokens;
      }
    }
  return stats;
}
