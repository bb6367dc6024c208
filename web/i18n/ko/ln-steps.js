// i18n/ko/ln-steps.js — the Korean labels of <posnorm-ln-steps> (figures/ln-steps.js), added to the
// Korean table when that module loads (../../i18n.js, addKoreanStrings); English: ../en.js.

export default {
    stepX: 'x',
    stepCentered: 'x − μ',
    stepNormalized: 'x̂ = (x − μ)/√(σ² + ε)',
    stepY: 'y = γ·x̂ + β',
    stepsReadout: (m, s) => `μ = ${m}, σ = ${s}`,
    stepsAlt: '토큰 벡터 하나가 층 정규화의 네 단계를 지나는 모습을 막대그래프 네 개로 보여 줍니다.',
};
