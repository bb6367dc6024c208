// i18n/ko/compare.js — the Korean labels of <posnorm-compare> (figures/compare.js), added to the
// Korean table when that module loads (../../i18n.js, addKoreanStrings); English: ../en.js.

export default {
    maxLen: '학습 PE의 max_len',
    ropeOffset: 'RoPE 시작 위치',
    cmpSin: '사인파 (절대, 고정)',
    cmpLearned: (m) => `학습된 표 (max_len ${m} 너머 없음)`,
    cmpRope: (o) => `RoPE: q·k 점수 대 거리 (시작 0 과 ${o})`,
    cmpAlibi: (h, m) => `ALiBi 바이어스, 헤드 ${h} (m = ${m})`,
    cmpReadout: (s, e, sl) => `seq_len ${s.seqLen}, d_model ${s.dModel}, base ${s.base}, max_len ${s.maxLen}. RoPE: 시작 위치를 0에서 ${s.offset}(으)로 바꿔도 점수 차 최대 ${e} — 상대 거리만 봅니다. ALiBi 기울기 (헤드 ${s.heads}개, 보이는 헤드 ${s.head}): ${sl}`,
    cmpAlt: 'PE 방식 비교: 사인파 히트맵, 학습된 표, RoPE 점수 곡선, ALiBi 바이어스 히트맵.',
    cmpTable: [['방식', '종류', '어디에', '학습 길이 밖'], ['사인파', '절대', '입력에 더함', '값은 정의됨'], ['학습', '절대', '입력에 더함', '없음'], ['RoPE', '상대', 'q, k 회전', '보통 잘 됨'], ['ALiBi', '상대', '어텐션 점수에 더함', '잘 됨']],
};
