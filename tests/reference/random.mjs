// The normal generator posnorm.h specifies, from its description: xoshiro128** (Blackman & Vigna,
// "Scrambled linear pseudorandom number generators", 2018) seeded by four splitmix32 steps, uniforms
// 2·((next >> 8) + 0.5)·2^−24 − 1, Marsaglia's polar method (1964) with Math.log.

/** n samples mean + std·z_k in float64 (before posnorm's rounding to float32). */
export function randomNormals(n, { seed = 0, mean = 0, std = 1 } = {}) {
  let state = seed >>> 0;
  const splitmix32 = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  const s = [splitmix32(), splitmix32(), splitmix32(), splitmix32()];
  const rotl = (x, k) => ((x << k) | (x >>> (32 - k))) >>> 0;
  const next = () => {
    const result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] = (s[2] ^ s[0]) >>> 0;
    s[3] = (s[3] ^ s[1]) >>> 0;
    s[1] = (s[1] ^ s[2]) >>> 0;
    s[0] = (s[0] ^ s[3]) >>> 0;
    s[2] = (s[2] ^ t) >>> 0;
    s[3] = rotl(s[3], 11);
    return result;
  };
  const uniform = () => 2 * (((next() >>> 8) + 0.5) / 16777216) - 1;
  const out = new Float64Array(n);
  for (let k = 0; k < n;) {
    let a, b, q;
    do { a = uniform(); b = uniform(); q = a * a + b * b; } while (q >= 1 || q === 0);
    const f = Math.sqrt((-2 * Math.log(q)) / q);
    out[k++] = mean + std * (a * f);
    if (k < n) out[k++] = mean + std * (b * f);
  }
  return out;
}
