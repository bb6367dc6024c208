// i18n/ko/properties.js — the Korean labels of <posnorm-properties> (figures/properties.js), added to the
// Korean table when that module loads (../../i18n.js, addKoreanStrings); English: ../en.js.

export default {
    shiftK: '상대 거리 k',
    probePos: '위치 pos',
    propBounded: (lo, hi) => `① 유계성: 모든 값이 [${lo}, ${hi}] 안에 있습니다.`,
    propUnique: (d, i, j, n) => `② 고유성: 위치 ${n}개 중 가장 가까운 두 위치는 ${i}와 ${j}, 거리 ${d} (> 0).`,
    propRelative: (k, m, e, p) => `③ 상대 위치: 쌍 0의 R(${k}) = ${m}; max |R(${k})·PE(${p}) − PE(${p + k})| = ${e}`,
    propExtrapolate: (l) => `④ 외삽: 학습 길이 ${l} 너머(회색)에서도 값이 같은 규칙으로 이어집니다.`,
    shiftTitle: (p, k) => `R(${k})·PE(${p}) (막대)와 PE(${p + k}) (점), 처음 16차원`,
    gramTitle: '위치 × 위치 내적 PE(i)·PE(j)',
    extrapolateTitle: (dims) => `차원 ${dims}의 값 (위치에 따라)`,
    propAlt: (s) => `위치 ${s.seqLen}개의 내적 히트맵과 위치에 따른 PE 곡선. 대각선이 가장 밝고 멀어질수록 내적이 줄어듭니다.`,
};
