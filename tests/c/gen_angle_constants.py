#!/usr/bin/env python3
"""gen_angle_constants.py — the reference values of tests/c/test_angles.c.

sin and cos of the exact angle p·w_i/factor, w_i = base^(-2i/dims), with
mpmath at 60 significant digits (the base, p and factor taken as the exact
binary values of their float64s), printed as C table rows
{base, dims, i, p, factor, sin, cos}, each value rounded once to float64
(repr); then, after a line "-- frequencies", w_i/factor itself as rows
{base, dims, i, factor, hi, lo}: hi the float64 nearest it, lo the float64
nearest the rest (together within about 1e-32 relative). Independent of
posnorm: nothing here reads its code or output.

Run:  python3 tests/c/gen_angle_constants.py > /tmp/rows.txt
and paste the rows into ANGLES[] and FREQS[] in tests/c/test_angles.c.
"""
import mpmath as mp

mp.mp.dps = 60

# (base, dims, pairs i): bases near 1 (w_i close to 1 for every pair) up to
# 1e30 (w_i falls fast), dims up to 8192, i = 1, 2 and large ones
PAIRS = [
    (1.0001, 8192, [1, 2, 4095]),
    (1.0001, 64, [31]),
    (1.3339610460108462, 8192, [1, 2, 3850, 4095]),
    (2.0, 128, [1, 2, 63]),
    (2.0, 8192, [4000]),
    (10000.0, 64, [1, 2, 20]),
    (10000.0, 128, [40]),
    (10000.0, 8192, [1000]),
    (500000.0, 128, [1, 2, 30]),
    (1e30, 8192, [1, 2, 500]),
    (1e30, 64, [1]),
]
# positions near 2^31, 2^24 and 2^20 ± 1 (integers: every kernel takes them)
POSITIONS = [2147483647.0, 2147483401.0, 16777216.0, 16777215.0, 1048577.0, 1048575.0]
# peSample's positions may be fractions and negative
SAMPLE_POSITIONS = [2147483000.75, -2147482999.25]


def row(base, dims, i, p, factor):
    w = mp.power(mp.mpf(base), mp.mpf(-2 * i) / dims)
    theta = mp.mpf(p) * w / mp.mpf(factor)
    return '  {%r, %d, %d, %r, %r, %r, %r},' % (
        base, dims, i, p, factor, float(mp.sin(theta)), float(mp.cos(theta)))


for base, dims, pairs in PAIRS:
    for i in pairs:
        for p in POSITIONS:
            print(row(base, dims, i, p, 1.0))
# fractional and negative positions (peSample), a few pairs
for base, dims, i in [(1.3339610460108462, 8192, 3850), (1.0001, 8192, 4095), (10000.0, 64, 1)]:
    for p in SAMPLE_POSITIONS:
        print(row(base, dims, i, p, 1.0))
# RoPE scaling 'linear' (w_i / factor), factors 2 and 0.75
for base, dims, i in [(1.3339610460108462, 8192, 3850), (10000.0, 128, 1), (500000.0, 128, 2)]:
    for p in [2147483647.0, 2147483401.0, 16777215.0]:
        for factor in [2.0, 0.75]:
            print(row(base, dims, i, p, factor))

print('-- frequencies')
FREQS = [(b, d, i, 1.0) for b, d, pairs in PAIRS for i in pairs]
FREQS += [(1.3339610460108462, 8192, 3850, 2.0), (10000.0, 128, 1, 0.75), (1e30, 8192, 2, 3.0)]
for base, dims, i, factor in FREQS:
    w = mp.power(mp.mpf(base), mp.mpf(-2 * i) / dims) / mp.mpf(factor)
    hi = float(w)
    print('  {%r, %d, %d, %r, %r, %r},' % (base, dims, i, factor, hi, float(w - mp.mpf(hi))))
