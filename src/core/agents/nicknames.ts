/**
 * Nicknames for sub-agents: short names a user can tell apart in the UI ("Lovelace is working").
 * Each agent of a tree gets one no other open agent of the tree has; a role may bring its own
 * candidates. When every name is taken, names come round again with a number ("Curie 2").
 */

/** People remembered for their work in science and mathematics. */
const COMMON_NICKNAMES: readonly string[] = [
  "Agnesi", "Al-Khwarizmi", "Archimedes", "Babbage", "Bernoulli", "Bohr", "Boole", "Brahe", "Cantor", "Carver",
  "Cauchy", "Cavendish", "Copernicus", "Curie", "Darwin", "Descartes", "Dirac", "Euler", "Faraday", "Fermat",
  "Fermi", "Feynman", "Fibonacci", "Franklin", "Galileo", "Galois", "Gauss", "Germain", "Gödel", "Hamilton",
  "Hilbert", "Hopper", "Hubble", "Huygens", "Hypatia", "Johnson", "Joule", "Kepler", "Lagrange", "Laplace",
  "Leibniz", "Lovelace", "Maxwell", "Meitner", "Mendel", "Mendeleev", "Mirzakhani", "Napier", "Newton", "Noether",
  "Ohm", "Pascal", "Pasteur", "Poincaré", "Ramanujan", "Riemann", "Rutherford", "Somerville", "Tesla", "Turing",
  "Volta", "Wu",
];

export class NicknamePool {
  private readonly taken = new Set<string>();
  private cursor = 0;

  /** A free nickname: from `candidates` when given, else from the common list; then marked taken. */
  take(candidates: readonly string[] = []): string {
    const list = candidates.length > 0 ? candidates : COMMON_NICKNAMES;
    // Start at a different place each time so agents of one run get varied names.
    const start = candidates.length > 0 ? 0 : this.cursor++ * 7;
    for (let round = 1; ; round++) {
      for (let i = 0; i < list.length; i++) {
        const base = list[(start + i) % list.length] as string;
        const name = round === 1 ? base : `${base} ${round}`;
        if (!this.taken.has(name)) {
          this.taken.add(name);
          return name;
        }
      }
    }
  }

  /** Marks a name as taken (an agent restored from a recorded thread keeps its nickname). */
  claim(name: string): void {
    this.taken.add(name);
  }

  release(name: string): void {
    this.taken.delete(name);
  }
}
