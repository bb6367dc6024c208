// i18n/ko/depth.js — the Korean labels of <posnorm-depth> (figures/depth.js), added to the
// Korean table when that module loads (../../i18n.js, addKoreanStrings); English: ../en.js.

export default {
    depthStdTitle: '층별 활성값 표준편차 (로그)',
    depthGradTitle: '층별 가중치 기울기 노름 (로그)',
    depthGradPending: '기울기를 계산하는 중…',
    depthGradFailed: '기울기를 계산하지 못했습니다',
    depthGradReadout: (post, pre, yes) => `마지막 층 ÷ 첫 층 기울기 노름: Post-LN ${post}, Pre-LN ${pre} — 이 스택은 Xiong 외(2020)의 결과를 ${yes ? '재현합니다' : '재현하지 않습니다'}.`,
    depthXiong: 'Xiong 외(ICML 2020, 그림 3): 초기화 직후 Post-LN의 기울기는 출력 쪽 층일수록 크고 Pre-LN은 거의 일정해서, Post-LN에는 학습률 워밍업이 필요합니다. (이 스택은 어텐션·FFN 없는 GELU(h·W) 블록입니다.)',
    weightScale: '가중치 스케일',
    blockPlain: '정규화 없음',
    blockRms: 'Pre-RMSNorm',
    depthStack: '스택',
    depthEncoder: '인코더',
    depthDecoder: '디코더 (교차 어텐션)',
    depthWhyEncoder: '인코더: 모든 가지가 x에 의존하므로 LayerNorm의 역전파가 나눈 만큼을 잔차 경로가 되돌려 주어, 여기서는 Post-LN의 기울기가 커지지 않습니다.',
    depthWhyDecoder: '이유: 디코더 블록마다 x와 무관한 교차 어텐션 가지 m·C_l(인코더 출력)이 더해지는데, Post-LN의 LayerNorm은 기울기를 x + f(x) + m·C_l의 퍼짐으로 나누고 잔차 경로는 x에 의존하는 부분만 되돌려 주므로, 입력 쪽으로 갈수록 층마다 기울기가 줄어듭니다 — Pre-LN의 잔차 경로는 정규화를 거치지 않습니다.',
    depthReadout: (v) => `마지막 층의 표준편차: ${v}`,
    depthOverflow: (layer) => `${layer}층에서 float32 오버플로 (약 3.4e38을 넘는 값)`,
    depthGradOverflow: (name, layers, count) => `${name}: ${layers}층의 가중치 기울기 노름이 float32 범위(약 3.4e38)를 넘어 그 층에서는 그리지 않았습니다.`,
    depthAlt: (s, overflows = []) => `${s.stack === 'decoder' ? '디코더(블록마다 메모리 벡터로의 교차 어텐션 가지가 더해짐)의 ' : ''}잔차 층 ${s.layers}개를 지나는 활성값 표준편차(로그 눈금): 정규화 없음, Post-Norm, Pre-Norm, Pre-RMSNorm.${overflows.map(([name, layer]) => ` ‘${name}’ 곡선은 ${layer}층에서 끝납니다: 그 층에서 float32 활성값이 오버플로합니다(약 3.4e38을 넘는 값).`).join('')}`,
};
