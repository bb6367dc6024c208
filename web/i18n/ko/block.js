// i18n/ko/block.js — the Korean labels of <posnorm-block> (figures/block.js), added to the
// Korean table when that module loads (../../i18n.js, addKoreanStrings); English: ../en.js.
import { TOKENS } from '../notation.js';

export default {
    blockPlacement: '정규화 위치',
    geluForm: 'GELU',
    geluErf: 'erf (nn.GELU())',
    geluTanh: 'tanh 근사',
    blockNorm: '정규화 종류',
    normLayer: 'LayerNorm',
    normRms: 'RMSNorm',
    attnHeads: '어텐션 헤드 수',
    blockEmbPe: 'x = 임베딩 + PE',
    blockEmb: 'x = 임베딩 (PE 없음)',
    blockAttn: '어텐션 가중치 (헤드마다, 행 = 질의 토큰)',
    blockPinned: (m, s) => `정규화 직후 모든 토큰: |평균| ≤ ${m}, |표준편차 − 1| ≤ ${s} — LayerNorm이 토큰마다 평균 0, 표준편차 1로 맞춥니다.`,
    blockPinnedRms: (r) => `정규화 직후 모든 토큰: |RMS − 1| ≤ ${r} — RMSNorm은 제곱평균제곱근만 1로 맞추고 평균은 그대로 둡니다.`,
    blockPreOut: (s) => `Pre-Norm: 출력 y = h + f는 정규화되지 않은 잔차 흐름이라 토큰별 표준편차가 ${s}입니다. 입력 x가 잔차 경로로 그대로 더해져 전달됩니다.`,
    blockPostOut: (s) => `Post-Norm: 출력 y를 다시 정규화하므로 토큰별 표준편차가 ${s}입니다. 잔차 합이 매 블록 끝에서 정규화됩니다.`,
    blockScale: (l) => `색: −${l}(파랑) … +${l}(주황), 모든 [토큰 × d_model] 패널 공통. 어텐션은 0 … 1.`,
    blockAlt: (s) => `트랜스포머 블록 하나를 지나는 텐서들: 토큰 ${TOKENS.join(', ')}, d_model ${s.dModel}, 헤드 ${s.heads}개, ${s.placement === 'pre' ? 'Pre-Norm' : 'Post-Norm'}, ${s.norm === 'rms' ? 'RMSNorm' : 'LayerNorm'}, PE ${s.pe === 'on' ? '있음' : '없음'}. 패널마다 히트맵과 토큰별 평균·표준편차.`,
};
