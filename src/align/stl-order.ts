// Iteration order of a libstdc++ std::unordered_map (GCC's _Hashtable with _Prime_rehash_policy,
// unique keys, max_load_factor 1), emulated so that sums fast_align takes over its hash maps
// (the M-step's normaliser over t(.|e), the tension gradient over sentence-length pairs) add the
// same numbers in the same order as the C++ tool, and therefore round the same way.
//
// The map is a singly-linked list of nodes; bucket b remembers the node *before* its first node.
// A key whose bucket is empty goes to the front of the list; otherwise it goes to the front of
// its bucket. A rehash walks the old list and rebuilds it by the same rule. Bucket counts grow
// through the prime sequence below (what libstdc++ picks for a default-constructed map as it
// fills: rehash when an insert would exceed one element per bucket).

/** Bucket counts of a default-constructed map as it grows (libstdc++ __prime_list via _M_next_bkt). */
const BUCKET_GROWTH = [
  13, 29, 59, 127, 257, 541, 1109, 2357, 5087, 10273, 20753, 42043, 85229, 172933, 351061, 712697, 1447153, 2938679, 5967347,
  12117689, 24607243, 49969847,
];

const NONE = -2;
const BEFORE_BEGIN = -1;

/**
 * Reusable emulator: `order(keys, hashes, n, out)` writes into out[0..n) the indices 0..n-1 of the
 * (distinct) keys, inserted in index order, in the order a libstdc++ unordered_map iterates them.
 * `hashes[k]` is the key's std::hash value (for unsigned keys: the key itself), at most 2^32 - 1.
 */
export class StlOrder {
  private next = new Int32Array(64);
  private buckets = new Int32Array(64);

  order(hashes: ArrayLike<number>, n: number, out: Int32Array, outOffset = 0): void {
    if (n === 0) return;
    if (this.next.length < n) this.next = new Int32Array(Math.max(n, this.next.length * 2));
    const next = this.next;
    let head = NONE; // _M_before_begin._M_nxt
    let bkt = 0; // bucket count (0 = not allocated yet)
    let growth = 0;
    let buckets = this.buckets;
    for (let x = 0; x < n; x++) {
      if (x >= bkt) {
        // Rehash to the next prime before inserting (first insert: 13 buckets).
        const nb = BUCKET_GROWTH[growth++];
        if (nb === undefined) throw new RangeError("StlOrder: more keys than the emulated growth table covers");
        if (buckets.length < nb) buckets = this.buckets = new Int32Array(Math.max(nb, buckets.length * 2));
        buckets.fill(NONE, 0, nb);
        let p = head;
        head = NONE;
        let bbeginBkt = 0;
        while (p !== NONE) {
          const pNext = next[p]!;
          const b = hashes[p]! % nb;
          const before = buckets[b]!;
          if (before === NONE) {
            next[p] = head;
            head = p;
            buckets[b] = BEFORE_BEGIN;
            if (next[p] !== NONE) buckets[bbeginBkt] = p;
            bbeginBkt = b;
          } else if (before === BEFORE_BEGIN) {
            next[p] = head;
            head = p;
          } else {
            next[p] = next[before]!;
            next[before] = p;
          }
          p = pNext;
        }
        bkt = nb;
      }
      const b = hashes[x]! % bkt;
      const before = buckets[b]!;
      if (before === NONE) {
        next[x] = head;
        head = x;
        if (next[x] !== NONE) buckets[hashes[next[x]!]! % bkt] = x;
        buckets[b] = BEFORE_BEGIN;
      } else if (before === BEFORE_BEGIN) {
        next[x] = head;
        head = x;
      } else {
        next[x] = next[before]!;
        next[before] = x;
      }
    }
    let k = outOffset;
    for (let p = head; p !== NONE; p = next[p]!) out[k++] = p;
  }
}
