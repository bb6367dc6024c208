// i18n/ko/ln-simulator.js — the Korean labels of <posnorm-ln-simulator> (figures/ln-simulator.js), added to the
// Korean table when that module loads (../../i18n.js, addKoreanStrings); English: ../en.js.

export default {
    lnAlt: (s) => `층 정규화 시뮬레이터: 특성 ${s.h}개를 N(${s.mu}, ${s.sigma}²)에서 뽑은 입력의 히스토그램과, γ=${s.gamma}, β=${s.beta}로 정규화한 출력의 히스토그램.`,
    mu: 'μ (입력 평균)',
    lnStats: (mean, std) => `평균 ${mean} · 표준편차 ${std}`,
    step1: '① 평균',
    step2: '② 분산',
    step3: '③ 정규화',
    step4: '④ 스케일·시프트',
};
