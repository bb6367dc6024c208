// i18n/ko.js — the Korean labels the figures share, and those of the first
// figure on the demo page (order.js); every other figure's own labels are
// in ko/<figure>.js, loaded with that figure (see ../i18n.js).
import { sub } from './subscript.js';
import notation, { TOKENS } from './notation.js';

export default {
    ...notation,
    wasmMissing: '이 브라우저에서는 WebAssembly를 사용할 수 없어 그림을 계산할 수 없습니다.',
    loading: '계산 준비 중…',
    dModel: 'd_model (임베딩 차원)',
    seqLen: 'seq_len (위치 개수)',
    base: '기저 (base)',
    layout: '배치 방식',
    interleaved: '교차 (sin, cos, sin, cos…)',
    concat: '연결 (sin… | cos…)',
    position: '위치 (pos)',
    dimension: '차원 (dim)',
    reference: '기준: i = 0 (가장 높은 주파수)',
    selected: (i) => `선택: i = ${i}`,
    features: 'H (특성 개수)',
    sigma: 'σ (입력 표준편차)',
    gamma: 'γ (스케일)',
    beta: 'β (시프트)',
    eps: 'ε (log₁₀)',
    resample: '다시 뽑기',
    before: '정규화 전 (입력 x)',
    after: '정규화 후 (출력 y)',
    copyLink: '링크 복사',
    linkCopied: '링크를 복사했습니다',
    linkShown: '이 링크를 복사하세요:',
    downloadPng: 'PNG 저장',
    downloadCsv: 'CSV 저장',
    toolbar: '그림 도구',
    langLabel: '언어',
    // order
    withPe: '위치 인코딩',
    peOff: '없음',
    peOn: '사인파 PE 더하기',
    moveLeft: (t) => `${t} 왼쪽으로`,
    moveRight: (t) => `${t} 오른쪽으로`,
    tokenAt: (t, i, n) => `${t}, ${n}개 중 ${i}번째. 화살표 키로 옮기기`,
    orderDelta: (d, pe) => `같은 토큰의 출력이 원래 순서일 때와 다른 정도: 최대 |Δ| = ${d} (${pe ? 'PE 있음: 순서에 따라 달라짐' : 'PE 없음: 순서와 무관 — 순열 등변성'})`,
    orderAlt: (s) => `셀프 어텐션 출력 벡터: 토큰 순서 ${s}. 각 행은 한 위치의 출력이며 색은 값입니다.`,
    // properties
    trainLen: '학습 길이',
    // compare
    heads: 'ALiBi 헤드 수',
    head: '보일 헤드',
    peErrorLine: (ours, code) => `그린 값의 float64 대비 최대 오차: posnorm ${ours}, 같은 크기에서 글의 float32 코드 ${code}`,
    peErrorPending: 'float64 대비 오차를 계산하는 중…',
    // depth
    layers: '층 수',
    width: '폭 (특성 수)',
    blockPost: 'Post-Norm',
    blockPre: 'Pre-Norm',
    // bn vs ln
    batch: '배치 크기 B',
    mode: 'BatchNorm 모드',
    train: '학습 (배치 통계)',
    // 임베드 대화상자 (core/embed-dialog.js)
    showEmbed: '퍼가기',
    embedNoHost: '이 페이지에서는 퍼가기를 쓸 수 없습니다. posnorm이 어디에 올라가 있는지 페이지가 알려 주지 않았습니다(configure({ embedBase })).',
    figureTitle: {
        order: '셀프 어텐션과 단어 순서',
        heatmap: '사인파 위치 인코딩 히트맵',
        waveform: '한 주파수 쌍의 sin과 cos',
        properties: '사인파를 쓰는 이유: 네 가지 성질',
        compare: '사인파 PE, 학습된 PE, RoPE, ALiBi 비교',
        'long-context': '학습 길이 너머의 RoPE',
        'rope-config': 'config.json으로 읽은 모델의 RoPE',
        precision: '위치 인코딩의 정밀도: float32, bfloat16, float16',
        depth: '잔차 층을 지나는 활성값과 기울기',
        'ln-simulator': '층 정규화 시뮬레이터',
        'ln-steps': '층 정규화 단계별',
        'bn-vs-ln': 'BatchNorm과 LayerNorm',
        block: '트랜스포머 블록 하나: Pre-Norm과 Post-Norm',
    },
};
