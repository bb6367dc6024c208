// i18n/ko/precision.js — the Korean labels of <posnorm-precision> (figures/precision.js), added to the
// Korean table when that module loads (../../i18n.js, addKoreanStrings); English: ../en.js.

export default {
    precMaxExp: '최대 위치 (2의 거듭제곱)',
    precPos: '위치 (커서)',
    precType: '수 형식',
    precCompute: '계산',
    precTypeF32: 'float32',
    precTypeBf16: 'bfloat16',
    precTypeF16: 'float16',
    precComputeF32: 'float32로 계산 후 반올림',
    precComputeLow: '모든 단계를 그 형식으로',
    precCode: (type, low) => (type === 'float32' ? 'float32 코드' : `${type} 코드 (${low ? '모든 단계 ' + type : 'float32 계산 후 반올림'})`),
    precErrCode: (code) => `${code} 오차`,
    precBlur: '가장 나쁜 쌍: 오차 ÷ 한 칸 이동',
    precErr64: 'posnorm 오차',
    precDist64: '이웃 거리 (float64)',
    precDistCode: (code) => `이웃 거리 (${code})`,
    precTitle: (d) => `d_model ${d}: float64 대비 최대 오차와 이웃 위치 사이 거리 (로그-로그)`,
    precReadout: (p, code, e32, e64, d64, d32, b) => `pos ${p}: ${code}의 최대 오차 ${e32}, posnorm ${e64}; PE(pos+1)과의 거리 float64 ${d64}, ${code} ${d32}; 가장 나쁜 쌍의 오차 ÷ 그 쌍의 한 칸 이동 ${b}`,
    precCrossover: (p, code) => `약 pos ${p}부터 ${code}의 어떤 차원 쌍은 오차가 그 쌍의 한 칸 이동보다 커집니다: 이웃 위치가 그 쌍에서 섞입니다 (느린 쌍, 즉 먼 위치를 구별하는 쌍이 먼저).`,
    precNoCrossover: (p, code) => `pos ${p}까지는 모든 차원 쌍에서 ${code}의 오차가 한 칸 이동보다 작습니다.`,
    precPositions: (type, exact, p, stored, share) => `${type}의 위치는 ${exact}까지만 정확한 정수입니다; pos ${p}는 ${stored}(으)로 저장됩니다${share > 1 ? ` (이웃한 위치 ${share}개가 같은 값)` : ''}.`,
    precConstant: (p, dim, n, d) => (dim === null ? `위치 0…${p}에서 상수인 cos 열은 없습니다.` : `위치 0…${p}에서 차원 ${dim}부터의 cos 열은 모두 상수 1입니다 (${d}열 중 ${n}열): 그 느린 쌍들은 여기서 위치를 전혀 담지 못합니다.`),
    precAlt: (s) => `${s.type ?? 'float32'} 위치 인코딩의 정밀도${s.type && s.type !== 'float32' ? (s.compute === 'low' ? ' (모든 단계를 그 형식으로)' : ' (float32 계산 후 반올림)') : ''}: d_model ${s.dModel}, 위치 1부터 2^${s.maxExp}까지 오차와 이웃 거리를 로그 축으로 그립니다.`,
};
