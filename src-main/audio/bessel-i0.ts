/**
 * The modified Bessel function of the first kind, order 0: the Kaiser window of the resampler's
 * and the true-peak interpolator's windowed sincs. Power series, 39 terms: converges to double
 * precision for x ≤ 20 (the windows use β ≤ 8). Pure.
 */
export function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 40; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
  }
  return sum;
}
