#!/usr/bin/env python3
"""gen_rope_scaling_exact.py — the reference values of
tests/rope_scaling_exact.test.mjs: RoPE with scaling (yarn, llama3,
longrope with its short and its long factors, dynamic with a grown base)
at positions near 2^31 and from 2^20 to 2^25, exactly.

For each case: Hugging Face transformers' inverse frequencies of the type
(modeling_rope_utils' _compute_*_parameters, with their default for every
key not given) and its attention factor, computed with mpmath at 50
significant digits from the float64 values posnorm's API receives (base,
factor, originalMaxPositions, betas, mscales, the low/high frequency
factors, each longrope factor: the exact binary values of those float64s;
π and every logarithm, power, floor and ceil exact), at the sequence length
a rope call takes (its highest position + 1); then the angle
p·inv_freq[i] for every position p and pair i reduced modulo 2π into
[-π, π], rounded once to float64 (within 4.5e-16 rad of the exact angle
modulo 2π; the test takes Math.cos and Math.sin of it). Nothing here reads
posnorm's code or output: in particular yarn's ramp, llama3's smoothing and
dynamic's grown base are the exact values of their formulas, not posnorm's
float64 ones.

posnorm computes dynamic's grown base in float64 and yarn's ramp and
llama3's smoothing in double-double, and takes the exact formula with w_i
in double-double from there (posnorm.h, pn_rope_frequencies_dd_f64), so
its angles may differ from these by those quantities' errors times
p·∂inv_freq[i]/∂quantity. 'slack' bounds that per pair, in rad per unit of
position, from a generous bound on each quantity's error: for the grown
base a few ulps of every float64 operation that makes it (2^-52 = ε
below); for the ramp and the smoothing 16 times double-double's 2^-104 per
operation (E_DD), and for llama3 w_i's own 1e-29 relative (its dd value,
pn_math.h), so their slack is ~1e-29·p, nothing next to the test's 3e-9 rad
(they were float64 until the two narrow cases at the end missed the bound:
their slack then was that float64 rounding). 0 where no such quantity
enters (longrope, yarn's pairs outside the ramp, llama3's pairs outside the
smoothed band).

Run:  python3 tests/gen_rope_scaling_exact.py > tests/fixtures/rope_scaling_exact.json
(mpmath 1.3; only this script needs it, the test reads the JSON).
With --c it prints instead the rows of SCALED[] in tests/c/test_angles.c
(the C entry points pn_rope_frequencies_dd_f64 and pn_rope_scaled_dd_f32,
natively): three pairs per type where no quantity posnorm computes on its
own enters (for dynamic pairs 1 to 3, with their slack), and the pair in
the ramp or band of each narrow case above, as
{type, dim, base, factor, orig, a, b, truncate, seq_len, i, p, af, sin, cos, tol}
with a, b = betaFast, betaSlow (yarn) or lowFreqFactor, highFreqFactor
(llama3), longrope's factors short_i = 0.75 + i/16 and long_i = 1 + i/2,
tol = 1e-12 + the slack in rad:
  python3 tests/gen_rope_scaling_exact.py --c
"""
import json
import random
import sys

import mpmath as mp

mp.mp.dps = 50
M = mp.mpf

# HF's defaults for the keys a case leaves out
BETA_FAST, BETA_SLOW = 32.0, 1.0

TOP = 2 ** 31
# near 2^31: three consecutive positions ending at 2^31 - 1 first (the test
# takes them with an offset too), then others; the call's sequence length
# (highest position + 1) is 2^31
NEAR = [TOP - 3, TOP - 2, TOP - 1, 2147483401, TOP - 2 ** 16 + 7, TOP - 2 ** 21 - 3]
# from 2^20 to 2^25: 2^25 - 3 .. 2^25 - 1 first, sequence length 2^25
MID = [2 ** 25 - 3, 2 ** 25 - 2, 2 ** 25 - 1, 2 ** 20 + 1, 4194319, 16777215]
# below 2^20 (sequence length 2^20), for frequencies above 1: an angle
# reaches 2^20 only once the frequencies are known
BELOW = [2 ** 20 - 3, 2 ** 20 - 2, 2 ** 20 - 1, 524289, 700001, 999999]


def factors(seed, n, lo, hi):
    """n float64 factors 2^u, u uniform in [lo, hi] (not powers of two)."""
    r = random.Random(seed)
    return [2.0 ** r.uniform(lo, hi) for _ in range(n)]


def mscale(scale, m=1.0):
    return M(1) if scale <= 1 else M('0.1') * M(m) * mp.log(M(scale)) + 1


EPS = M(2) ** -52
# yarn's ramp and llama3's smoothing in double-double: 16·2^-104 per operation
E_DD = M(2) ** -100
# w_i in double-double: within about 1e-29 relative (pn_math.h)
E_W = M('1e-29')


def frequencies(dim, base, s, seq_len, edges=True):
    """(inv_freq[dim/2], attention factor, slack[dim/2]): HF's formulas, exactly.
    edges False: a llama3 band may be as narrow as one ulp (every wavelength
    in it is then within 1e-12 of its edges)."""
    half = dim // 2
    t = s['type']
    b = M(base)
    if t == 'dynamic':
        orig = M(s['originalMaxPositions'])
        sl = max(M(seq_len), orig)
        f = M(s['factor'])
        b = b * (f * sl / orig - (f - 1)) ** (M(dim) / (dim - 2))
    w = [1 / b ** (M(2 * i) / dim) for i in range(half)]
    if t == 'dynamic':
        # b = base·grow^e, e = dim/(dim - 2), as exp(e·ln grow): relative error
        # up to ε·(e·|ln grow| + a few) each for the log, the product and exp,
        # and grow's own rounding; w_i = b^(-2i/dim) takes 2i/dim of it
        grow = b / M(base)
        rel_b = EPS * (2 * abs(mp.log(grow)) + 8)
        return w, M(1), [x * (M(2 * i) / dim) * rel_b for i, x in enumerate(w)]
    if t == 'yarn':
        f, orig = M(s['factor']), M(s['originalMaxPositions'])
        if 'attentionFactor' in s:
            af = M(s['attentionFactor'])
        elif s.get('mscale') and s.get('mscaleAllDim'):
            af = mscale(s['factor'], s['mscale']) / mscale(s['factor'], s['mscaleAllDim'])
        else:
            af = mscale(s['factor'])

        def corr(rot):
            return (dim * mp.log(orig / (M(rot) * 2 * mp.pi))) / (2 * mp.log(M(base)))
        def corr_err(rot, d):
            # ln orig - ln rot - ln 2π in double-double (each log within about 1e-31
            # absolute, < E_DD, the sums within 2^-105 of their operands), times
            # dim/(2·ln base) (a product and a quotient, ln base in dd)
            c = M(dim) / (2 * mp.log(M(base)))
            return E_DD * (c * (abs(mp.log(orig)) + abs(mp.log(M(rot))) + mp.log(2 * mp.pi) + 4) + 4 * abs(d))
        rf, rs = s.get('betaFast', BETA_FAST), s.get('betaSlow', BETA_SLOW)
        low, high = corr(rf), corr(rs)
        d_low, d_high = corr_err(rf, low), corr_err(rs, high)
        if s.get('truncate', True):
            # an exact correction dim within 1e-12 of an integer: float64 could round it the other way
            assert abs(low - mp.nint(low)) > 1e-12 and abs(high - mp.nint(high)) > 1e-12
            low, high = mp.floor(low), mp.ceil(high)
            d_low = d_high = 0
        if low < 0:
            low, d_low = M(0), 0
        if high > dim - 1:
            high, d_high = M(dim - 1), 0
        assert low != high  # (HF's high += 0.001 is not exercised here)
        out, slack = [], []
        for i in range(half):
            r = (i - low) / (high - low)
            ramp = min(M(1), max(M(0), r))
            extrapolation = 1 - ramp
            out.append(w[i] / f * (1 - extrapolation) + w[i] * extrapolation)
            if 0 < r < 1:
                # ramp = (i - low)/(high - low) in dd (two sums, a quotient), low and high off by d_low, d_high
                d_ramp = E_DD * (2 + (i + abs(low) + abs(high)) / abs(high - low)) + \
                    (d_low * abs(high - i) + d_high * abs(i - low)) / (high - low) ** 2
                slack.append(w[i] * abs(1 - 1 / f) * 2 * d_ramp)
            else:
                # clamped: 0 or 1 in float64 too, unless within rounding of the ends
                # (exactly 0 or 1 where i is an integer low or high, exact in float64)
                assert (r == 0 and d_low == 0) or (r == 1 and d_low == d_high == 0) or (abs(r) > 1e-9 and abs(r - 1) > 1e-9)
                slack.append(M(0))
        return out, af, slack
    if t == 'llama3':
        f, orig = M(s['factor']), M(s['originalMaxPositions'])
        lff, hff = M(s['lowFreqFactor']), M(s['highFreqFactor'])
        low_wave, high_wave = orig / lff, orig / hff
        out, slack = [], []
        for x in w:
            wave = 2 * mp.pi / x
            # no wavelength within 1e-12 relative of a band's edge (the smoothing is
            # continuous there, but then it would test little)
            assert not edges or (abs(wave / low_wave - 1) > 1e-12 and abs(wave / high_wave - 1) > 1e-12)
            if wave < high_wave:
                out.append(x)
                slack.append(M(0))
            elif wave > low_wave:
                out.append(x / f)
                slack.append(M(0))
            else:
                sm = (orig / wave - lff) / (hff - lff)
                out.append((1 - sm) * x / f + sm * x)
                # 1 - t = (hff - orig/λ)/(hff - lff) in dd, orig/λ = orig·w_i/2π from the dd
                # w_i (E_W) and 2π in dd, the differences and the quotient (E_DD each)
                d_sm = ((E_W + 4 * E_DD) * orig / wave + E_DD * (2 * hff + 2 * abs(1 - sm) * (hff - lff))) / (hff - lff)
                slack.append(x * abs(1 - 1 / f) * 2 * d_sm)
        return out, M(1), slack
    if t == 'longrope':
        orig = M(s['originalMaxPositions'])
        ext = s['longFactor'] if M(seq_len) > orig else s['shortFactor']
        f = M(s.get('factor', 1.0))
        if 'attentionFactor' in s:
            af = M(s['attentionFactor'])
        else:
            af = M(1) if f <= 1 else mp.sqrt(1 + mp.log(f) / mp.log(orig))
        return [x / M(e) for x, e in zip(w, ext)], af, [M(0)] * half
    raise ValueError(t)


def case(name, dim, base, scaling, positions, float64_off=False):
    seq_len = max(positions) + 1
    w, af, slack = frequencies(dim, base, scaling, seq_len, edges=not float64_off)
    # θ − 2π·round(θ/2π): 50 digits hold θ < 2^33 to 1e-40, its reduction to 1e-40
    angles = [[float(a - 2 * mp.pi * mp.nint(a / (2 * mp.pi))) for a in (M(p) * x for x in w)]
              for p in positions]
    # the largest angle, for the test's message and its check that the case reaches 2^20
    c = {'name': name, 'dim': dim, 'base': base, 'scaling': scaling, 'positions': positions,
         'attentionFactor': float(af), 'maxAngle': float(max(positions) * max(w)),
         'slack': [float(x) for x in slack], 'angles': angles}
    if float64_off:
        # and the exact frequencies, rounded: the test allows p·|rest|·2^-52
        # for the rounding of a rest as large as the frequency (its float64
        # value, and p times it in pn_sincos_dd), |rest| ≈ |freq - float64 w_i|
        c['float64Off'] = True
        c['freq'] = [float(x) for x in w]
    return c


CASES = []
for where, ps in (('near 2^31', NEAR), ('2^20..2^25', MID)):
    # yarn: the Hugging Face defaults (ramp over pairs 10..23 of 32, truncated)
    CASES.append(case(f'yarn factor 8, {where}', 64, 10000.0,
                      {'type': 'yarn', 'factor': 8, 'originalMaxPositions': 4096}, ps))
    # yarn: the ramp from pair 0 to high = 8.07 untruncated (frequencies near 1
    # interpolated), mscale ratio as the attention factor
    CASES.append(case(f'yarn factor 16, untruncated ramp from pair 0, {where}', 64, 10000.0,
                      {'type': 'yarn', 'factor': 16, 'originalMaxPositions': 64, 'truncate': False,
                       'mscale': 1.0, 'mscaleAllDim': 0.5}, ps))
    # llama3: Llama 3.1's own parameters
    CASES.append(case(f'llama3 Llama 3.1, {where}', 128, 500000.0,
                      {'type': 'llama3', 'factor': 8, 'originalMaxPositions': 8192,
                       'lowFreqFactor': 1, 'highFreqFactor': 4}, ps))
    # llama3 with originalMaxPositions 64: all three bands (w, the smoothed
    # ones, w/factor) take angles past 2^20
    CASES.append(case(f'llama3 factor 8, originalMaxPositions 64, {where}', 64, 10000.0,
                      {'type': 'llama3', 'factor': 8, 'originalMaxPositions': 64,
                       'lowFreqFactor': 1, 'highFreqFactor': 4}, ps))
    # longrope: long factors (originalMaxPositions below the sequence length),
    # some below 1 (frequencies above 1)
    CASES.append(case(f'longrope long factors, {where}', 64, 10000.0,
                      {'type': 'longrope', 'factor': 32, 'originalMaxPositions': 4096,
                       'shortFactor': factors(1, 32, 0, 1), 'longFactor': factors(2, 32, -1.5, 5)}, ps))
    # longrope: short factors (originalMaxPositions at or above the sequence length)
    CASES.append(case(f'longrope short factors, {where}', 64, 10000.0,
                      {'type': 'longrope', 'factor': 4, 'originalMaxPositions': max(ps) + 1 if where == 'near 2^31' else 2 ** 26,
                       'shortFactor': factors(3, 32, -1.5, 1), 'longFactor': factors(4, 32, 0, 5)}, ps))
    # dynamic: a base grown ~7e6-fold (factor 4, originalMaxPositions 2048)
    CASES.append(case(f'dynamic factor 4, originalMaxPositions 2048, {where}', 128, 10000.0,
                      {'type': 'dynamic', 'factor': 4, 'originalMaxPositions': 2048}, ps))
    # dynamic: a base grown ~3-fold (originalMaxPositions half the sequence
    # length), rotary dim 256: many frequencies near 1
    CASES.append(case(f'dynamic factor 2, originalMaxPositions (highest position + 1)/2, {where}', 256, 10000.0,
                      {'type': 'dynamic', 'factor': 2, 'originalMaxPositions': (max(ps) + 1) // 2}, ps))
# dynamic near 2^31 once more, rotary dim 512 and base 500000: a rest left
# out is seen where 2i/dim is small (the grown base's float64 rounding
# enters w_i with a weight 2i/dim, a float64 w_i's own rounding without)
CASES.append(case('dynamic factor 2, originalMaxPositions 2^30, rotary dim 512, base 500000, near 2^31', 512, 500000.0,
                  {'type': 'dynamic', 'factor': 2, 'originalMaxPositions': 2 ** 30}, NEAR))
# below 2^20: longrope's short factors from 2^-14, frequencies up to ~1.6e4
# (angles up to ~1.7e10: a frequency's float64 rounding times p is up to
# ~1e-6 rad there too)
CASES.append(case('longrope short factors down to 2^-14, positions below 2^20', 64, 10000.0,
                  {'type': 'longrope', 'originalMaxPositions': 2 ** 21,
                   'shortFactor': factors(5, 32, -14, 1), 'longFactor': factors(6, 32, 0, 5)}, BELOW))

# Narrow ramps and bands near 2^31: an untruncated yarn ramp a fraction of
# a pair wide (betaFast, betaSlow near each other) or a llama3 smoothing band
# (highFreqFactor near lowFreqFactor) divides the ramp's or the smoothing's
# rounding by the band's width, and p ≈ 2^31 multiplies it. When posnorm
# took them in float64 these missed the bound: the first two by 4.4 and 2.5
# times (1.3e-6 and 7.6e-7·(|a| + |b|)), the llama3 one at rotary dim 512
# (lowFreqFactor 2, highFreqFactor 2.02: pair 45 in the band) by ~3e-6 rad;
# now both are double-double.
for name, dim, scaling in (
        ('yarn factor 16, untruncated narrow ramp around pair 1 (betaFast 10, betaSlow 9.72)', 64,
         {'type': 'yarn', 'factor': 16, 'originalMaxPositions': 83, 'betaFast': 10, 'betaSlow': 9.72, 'truncate': False}),
        ('llama3 factor 8, narrow smoothing band (lowFreqFactor 1, highFreqFactor 1.05, originalMaxPositions 64)', 64,
         {'type': 'llama3', 'factor': 8, 'originalMaxPositions': 64, 'lowFreqFactor': 1, 'highFreqFactor': 1.05}),
        ('llama3 factor 8, rotary dim 512, narrow smoothing band (lowFreqFactor 2, highFreqFactor 2.02, originalMaxPositions 64)', 512,
         {'type': 'llama3', 'factor': 8, 'originalMaxPositions': 64, 'lowFreqFactor': 2, 'highFreqFactor': 2.02}),
        ('yarn factor 16, rotary dim 512, untruncated narrow ramp around pair 2 (betaFast 10, betaSlow 9.852)', 512,
         {'type': 'yarn', 'factor': 16, 'originalMaxPositions': 67, 'betaFast': 10, 'betaSlow': 9.852, 'truncate': False})):
    CASES.append(case(f'{name}, near 2^31', dim, 10000.0, scaling, NEAR))

# Ramps and bands so narrow against their ends' float64 rounding that the
# float64 frequency in them is many ulps off ('float64Off': the test does
# not compare their float64 angles, and allows a pair in the ramp or band
# whose angle is below 2^20 p·w_i·2^-44 more, the rest posnorm leaves out
# there): posnorm takes the rest at every angle where it passes 2^-44·w_i.
# Before it did, the angle below 2^20 took the float64 frequency alone, and
# the float64 one was taken as the exact one's size for the rest (none below
# 2^-12 or negative); the errors of pairs (1, 0) then (rad): yarn's betas 3 %
# apart at rotary dim 4096 (a ramp 4.4 pairs wide at pair 580; pair 582's
# angle just under 2^20 at the highest position) 2.8e-7; llama3's band 1.003
# wide (pair 69's angle just under 2^20) 3.0e-6; llama3 bands one ulp wide
# (the float64 frequency -0.656, and w/factor where the exact smoothing is
# 0.24) ~1.9 and ~1.8; yarn's ramp one betaFast ulp wide at base 1.0001 at
# position 2^20 - 1 (the call's angles all below 2^20) ~1.6.
def scan_positions(p):
    """Three consecutive positions ending at p, then three others from 2^20."""
    return [p - 2, p - 1, p, 2 ** 20 + 1, 4194319, 16777215]


for name, dim, base, scaling, ps in (
        ('yarn factor 16, rotary dim 4096, base 1e6, betas 3 % apart (ramp 4.4 pairs wide at pair 580), pair 582 just under 2^20', 4096, 1e6,
         {'type': 'yarn', 'factor': 16, 'originalMaxPositions': 1000000, 'betaFast': 3232.319314262184,
          'betaSlow': 3136.789841528313, 'truncate': False}, scan_positions(656739464)),
        ('llama3 factor 32, band 1.003 wide (lowFreqFactor 9.0969, highFreqFactor 9.1242), pair 69 just under 2^20', 256, 10000.0,
         {'type': 'llama3', 'factor': 32, 'originalMaxPositions': 8192, 'lowFreqFactor': 9.096905854233336,
          'highFreqFactor': 9.124196571796036}, scan_positions(1864144487)),
        ('llama3 factor 16, band one ulp wide (float64 frequency -0.656), near 2^31', 64, 10000.0,
         {'type': 'llama3', 'factor': 16, 'originalMaxPositions': 64, 'lowFreqFactor': 7.638359693519927,
          'highFreqFactor': 7.638359693519928}, NEAR),
        ('llama3 factor 1e9, rotary dim 4096, band one ulp wide (float64 frequency w/factor, exact smoothing 0.24), near 2^31', 4096, 500000.0,
         {'type': 'llama3', 'factor': 1e9, 'originalMaxPositions': 8192, 'lowFreqFactor': 1262.6895151647632,
          'highFreqFactor': 1262.6895151647634}, NEAR),
        ('yarn factor 16, base 1.0001, ramp one betaFast ulp wide, positions below 2^20', 128, 1.0001,
         {'type': 'yarn', 'factor': 16, 'originalMaxPositions': 1321519326, 'betaFast': 210325347.27128583,
          'betaSlow': 210325347.27128577, 'truncate': False}, BELOW)):
    CASES.append(case(name, dim, base, scaling, ps, float64_off=True))


def c_rows():
    """The rows of SCALED[] (tests/c/test_angles.c)."""
    short = [0.75 + i / 16 for i in range(128)]
    long_ = [1 + i / 2 for i in range(128)]
    types = {'linear': 1, 'dynamic': 2, 'yarn': 3, 'llama3': 4, 'longrope': 5}
    specs = [
        # (scaling, dim, base, seq_len, (a, b)[, the pairs])
        ({'type': 'yarn', 'factor': 8, 'originalMaxPositions': 4096}, 64, 10000.0, 2 ** 31, (32.0, 1.0)),
        ({'type': 'yarn', 'factor': 16, 'originalMaxPositions': 64}, 64, 10000.0, 2 ** 31, (32.0, 1.0)),
        ({'type': 'llama3', 'factor': 8, 'originalMaxPositions': 64, 'lowFreqFactor': 1.0, 'highFreqFactor': 4.0},
         64, 10000.0, 2 ** 31, (1.0, 4.0)),
        ({'type': 'llama3', 'factor': 8, 'originalMaxPositions': 8192, 'lowFreqFactor': 1.0, 'highFreqFactor': 4.0},
         128, 500000.0, 2 ** 31, (1.0, 4.0)),
        ({'type': 'longrope', 'factor': 4, 'originalMaxPositions': 4096, 'shortFactor': short[:32], 'longFactor': long_[:32]},
         64, 10000.0, 4096, (0.0, 0.0)),
        ({'type': 'longrope', 'factor': 4, 'originalMaxPositions': 4096, 'shortFactor': short[:32], 'longFactor': long_[:32]},
         64, 10000.0, 2 ** 31, (0.0, 0.0)),
        ({'type': 'dynamic', 'factor': 2, 'originalMaxPositions': 2 ** 30}, 256, 10000.0, 2 ** 31, (0.0, 0.0)),
        ({'type': 'dynamic', 'factor': 2, 'originalMaxPositions': 2 ** 30}, 512, 500000.0, 2 ** 31, (0.0, 0.0)),
        # the narrow ramps and bands (CASES' last four), at the pair inside
        ({'type': 'yarn', 'factor': 16, 'originalMaxPositions': 83, 'truncate': False}, 64, 10000.0, 2 ** 31, (10.0, 9.72), [1]),
        ({'type': 'llama3', 'factor': 8, 'originalMaxPositions': 64, 'lowFreqFactor': 1.0, 'highFreqFactor': 1.05},
         64, 10000.0, 2 ** 31, (1.0, 1.05), [8]),
        ({'type': 'llama3', 'factor': 8, 'originalMaxPositions': 64, 'lowFreqFactor': 2.0, 'highFreqFactor': 2.02},
         512, 10000.0, 2 ** 31, (2.0, 2.02), [45]),
        ({'type': 'yarn', 'factor': 16, 'originalMaxPositions': 67, 'truncate': False}, 512, 10000.0, 2 ** 31, (10.0, 9.852), [2]),
    ]
    for s, dim, base, seq_len, (a, b), *given in specs:
        if s['type'] == 'yarn':
            s = dict(s, betaFast=a, betaSlow=b)
        w, af, slack = frequencies(dim, base, s, seq_len)
        ps = [2 ** 31 - 1, 2147483401, 2 ** 31 - 2 ** 21 - 3]
        # the three largest frequencies but w_0 = 1 (exact in float64) where no
        # float64 quantity enters; dynamic's pairs 1 to 3 (their slack small)
        if given:
            pairs = given[0]
            assert all(slack[i] > 0 for i in pairs)  # in the ramp or band
        elif s['type'] == 'dynamic':
            pairs = [1, 2, 3]
        else:
            pairs = sorted((i for i in range(1, dim // 2) if slack[i] == 0), key=lambda i: -w[i])[:3]
        assert len(pairs) == (len(given[0]) if given else 3) and all(ps[-1] * w[i] >= 2 ** 20 for i in pairs)
        for i in sorted(pairs):
            for p in ps:
                th = M(p) * w[i]
                print('  {%d, %d, %r, %r, %r, %r, %r, %d, %r, %d, %r, %r, %r, %r, %.3g},' % (
                    types[s['type']], dim, base, float(s['factor']), float(s['originalMaxPositions']), a, b,
                    int(s.get('truncate', True)), float(seq_len), i, float(p), float(af), float(mp.sin(th)), float(mp.cos(th)),
                    1e-12 + float(slack[i] * p)))


if sys.argv[1:] == ['--c']:
    c_rows()
    sys.exit(0)

print(json.dumps({
    'generatedBy': 'python3 tests/gen_rope_scaling_exact.py > tests/fixtures/rope_scaling_exact.json',
    'mpmath': mp.__version__, 'dps': mp.mp.dps,
    'cases': CASES}, indent=None, separators=(',', ':')).replace('{"name"', '\n{"name"'))
