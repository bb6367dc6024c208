// i18n/ko/heatmap.js — the Korean labels of <posnorm-heatmap> (figures/heatmap.js), added to the
// Korean table when that module loads (../../i18n.js, addKoreanStrings); English: ../en.js.
import { sub } from '../subscript.js';

export default {
    highFreq: '← 높은 주파수',
    lowFreq: '낮은 주파수 →',
    heatmapAlt: (s) => `사인파 위치 인코딩 히트맵: 위치 ${s.seqLen}개 × 차원 ${s.dModel}개, base ${s.base}, ${s.layout === 'concat' ? '연결' : '교차'} 배치. 가로축은 임베딩 차원, 세로축은 위치이며 색은 −1(파랑)에서 +1(주황)까지의 값을 나타냅니다. 왼쪽 열일수록 빠르게 진동합니다.`,
    heatmapReadout: (r) => `PE(pos=${r.pos}, dim=${r.dim}) = ${r.text} — ${r.fn}(${r.pos} · ω${sub(r.i)}), 파장 ${r.wavelengthText}`,
    heatmapShape: (s) => `행렬 ${s.seqLen} × ${s.dModel}, base ${s.base}, ${s.layout === 'concat' ? '연결' : '교차'} 배치, 모든 값은 [−1, 1] 안에 있습니다.`,
    cursorHint: '그림 위에서 마우스·터치로, 또는 그림을 선택한 뒤 화살표 키로 커서를 옮기세요.',
};
