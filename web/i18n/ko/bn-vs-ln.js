// i18n/ko/bn-vs-ln.js — the Korean labels of <posnorm-bn-vs-ln> (figures/bn-vs-ln.js), added to the
// Korean table when that module loads (../../i18n.js, addKoreanStrings); English: ../en.js.

export default {
    infer: '추론 (이동 평균 통계)',
    matInput: '입력 X [B × H]',
    matBn: 'BatchNorm: 열(배치 축)마다',
    matLn: 'LayerNorm: 행(특성 축)마다',
    bnReadout: (m, v) => `BatchNorm 열 0: 평균 ${m}, 분산 ${v}`,
    lnReadout: (m, v) => `LayerNorm 행 0: 평균 ${m}, 분산 ${v}`,
    bnBatchOne: '배치 크기 1, 학습 모드: 각 열의 분산이 0이라 BatchNorm 출력이 모두 β(= 0)입니다. LayerNorm은 영향이 없습니다.',
    bnAlt: (s) => `B ${s.batch} × H ${s.features} 행렬의 입력, BatchNorm 출력, LayerNorm 출력 히트맵.`,
};
