// i18n/ko/long-context.js — the Korean labels of <posnorm-long-context> (figures/long-context.js), added to the
// Korean table when that module loads (../../i18n.js, addKoreanStrings); English: ../en.js.

export default {
    lcTrainLen: '학습 길이 L',
    lcFactor: '확장 배수',
    lcDim: '헤드 차원',
    lcDistance: '상대 거리 (커서)',
    lcMethod_none: '그대로',
    lcMethod_linear: 'PI',
    lcMethod_dynamic: 'NTK(동적)',
    lcMethod_yarn: 'YaRN',
    lcMethod_llama3: 'Llama 3',
    lcWavesTitle: '차원 쌍마다 파장 2π/ω_i (로그)',
    lcScoreTitle: 'q·k 점수 대 상대 거리 (음영: L 너머, 점선: L 안에서 본 범위)',
    lcReadoutScores: (d, list, lo, hi) => `거리 ${d}: ${list} (학습 중 본 범위 [${lo}, ${hi}], ✗ = 범위 밖)`,
    lcReadoutTurns: (L, list) => `L = ${L} 안에서 한 바퀴 이상 도는 쌍: ${list}`,
    lcReadoutFactors: (list) => `어텐션 배율(cos·sin에 곱함): ${list}`,
    lcSources: '출처: PI — Chen 외 2023; NTK — HF transformers의 dynamic; YaRN — Peng 외 2023; Llama 3 — Llama 3.1 규칙; ALiBi(점선) — Press 외 2022.',
    lcAlt: (s) => `긴 문맥 RoPE: 학습 길이 ${s.trainLen}, 확장 ${s.factor}배, 헤드 차원 ${s.dim}. 왼쪽은 차원 쌍별 파장, 오른쪽은 상대 거리에 따른 q·k 점수를 방법별로 그립니다.`,
};
