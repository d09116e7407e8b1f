/**
 * A set of packed monomials (W words each, see groebner.ts) that numbers its members in the order
 * they were added: open addressing on an Int32Array, keys compared word by word. The Groebner
 * engine collects into it every monomial one reduction can reach (symbolic preprocessing) and
 * then keeps the coefficients in an array indexed by these numbers.
 */
export class MonomialTable {
  /** The members' words, member i at [i·W, (i + 1)·W). */
  mons: Int32Array;
  /** Number of members. */
  size = 0;
  private slots: Int32Array;
  private mask: number;

  constructor(private readonly W: number) {
    this.mons = new Int32Array(64 * W);
    this.slots = new Int32Array(128).fill(-1);
    this.mask = 127;
  }

  /** Empty the set, keeping its memory. */
  clear(): void {
    if (this.size > 0) this.slots.fill(-1);
    this.size = 0;
  }

  /** The number of the monomial words[at, at + W) + add[0, W) (add may be null), added if new. */
  intern(words: Int32Array, at: number, add: Int32Array | null): number {
    const W = this.W;
    let h = 0x811c9dc5;
    for (let k = 0; k < W; k++) {
      const v = (words[at + k] as number) + (add === null ? 0 : (add[k] as number));
      h = Math.imul(h ^ v, 0x9e3779b1);
      h ^= h >>> 15;
    }
    const mons = this.mons;
    const slots = this.slots;
    let s = h & this.mask;
    for (;;) {
      const id = slots[s] as number;
      if (id < 0) break;
      let same = true;
      const base = id * W;
      for (let k = 0; k < W; k++) {
        if ((mons[base + k] as number) !== (words[at + k] as number) + (add === null ? 0 : (add[k] as number))) {
          same = false;
          break;
        }
      }
      if (same) return id;
      s = (s + 1) & this.mask;
    }
    const id = this.size++;
    if ((id + 1) * W > mons.length) {
      const grown = new Int32Array(mons.length * 2);
      grown.set(mons);
      this.mons = grown;
    }
    const out = this.mons;
    for (let k = 0; k < W; k++) out[id * W + k] = (words[at + k] as number) + (add === null ? 0 : (add[k] as number));
    slots[s] = id;
    if (2 * this.size > this.mask) this.rehash();
    return id;
  }

  private rehash(): void {
    const W = this.W;
    const capacity = (this.mask + 1) * 2;
    const slots = new Int32Array(capacity).fill(-1);
    const mask = capacity - 1;
    for (let id = 0; id < this.size; id++) {
      let h = 0x811c9dc5;
      for (let k = 0; k < W; k++) {
        h = Math.imul(h ^ (this.mons[id * W + k] as number), 0x9e3779b1);
        h ^= h >>> 15;
      }
      let s = h & mask;
      while ((slots[s] as number) >= 0) s = (s + 1) & mask;
      slots[s] = id;
    }
    this.slots = slots;
    this.mask = mask;
  }
}
