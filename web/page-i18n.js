// page-i18n.js — the texts of the demo page itself (web/index.html), one
// table per language. index.html carries the Korean text in its markup (so
// readers without JavaScript have it, and the first paint needs no script);
// page.js loads this module only to switch language or name the engine.

export const PAGE_STRINGS = {
  ko: {
    title: '위치 인코딩과 층 정규화',
    series: 'AI 아키텍처 시리즈 06 · 인터랙티브 그림',
    intro: '트랜스포머의 어텐션은 입력의 순서를 보지 못합니다. 위치 인코딩은 각 위치에 고유한 파형을 더해 순서를 알려 주고, 층 정규화는 깊은 층을 지나도 활성값의 크기가 흔들리지 않게 붙잡아 줍니다. 아래 그림은 모두 브라우저 안의 WebAssembly 커널이 직접 계산합니다.',
    partA: 'Part A. 위치 인코딩 (Positional Encoding)',
    partAIntro: '사인파 위치 인코딩은 차원 쌍 i마다 주파수 ω_i = base^(−2i/d_model)를 정하고, 위치 pos에서 짝수 차원에는 sin(pos·ω_i), 홀수 차원에는 cos(pos·ω_i)를 둡니다. 앞쪽 차원은 빠르게, 뒤쪽 차원은 아주 느리게 변합니다.',
    figA0: '그림 A0. 셀프 어텐션은 순서를 모릅니다. 토큰의 자리를 바꿔 보세요. 위치 인코딩이 없으면 각 토큰의 출력은 어디에 있든 똑같고(순열 등변성), 위치 인코딩을 더하면 순서에 따라 달라집니다.',
    figA3: '그림 A3. 사인파를 쓰는 네 가지 이유: 값이 [−1, 1]에 묶이고, 위치마다 벡터가 다르며, PE(pos+k)가 PE(pos)의 회전 R(k)로 얻어지고, 학습 길이 너머로도 같은 규칙으로 이어집니다.',
    figA4: '그림 A4. 같은 seq_len, d_model, base에서 네 가지 위치 표현 비교: 사인파, 학습된 표, RoPE, ALiBi. RoPE 점수는 시작 위치와 상관없이 거리에만 의존합니다.',
    figA5: '그림 A5. 학습 길이 L을 넘어서면 RoPE는 어떻게 될까요? 왼쪽은 차원 쌍마다의 파장입니다. L 안에서 한 바퀴를 다 도는 쌍과 한 번도 다 돌지 못하는 쌍이 있고, 긴 문맥 규칙들은 모두 이 구분 위에 세워져 있습니다. 오른쪽은 고정된 q와 k의 점수를 상대 거리에 따라 그린 것으로, 스케일링이 없으면 L 너머에서 점수가 학습 중 본 범위를 벗어나고, PI·NTK·YaRN·Llama 3 규칙은 그 안에 머무르게 합니다.',
    figA1: '그림 A1. 위치 인코딩 행렬 PE[seq_len × d_model]. 가로축은 임베딩 차원, 세로축은 위치입니다. 커서를 옮기면 그 칸의 정확한 값과, 그 값이 sin인지 cos인지, 해당 주파수의 파장을 보여 줍니다.',
    figA2: '그림 A2. 한 차원 쌍의 sin·cos를 위치에 따라 그린 파형. 위는 가장 빠른 기준 쌍(i = 0), 아래는 고른 쌍 i입니다. i가 커질수록 파장 2π·base^(2i/d_model)이 길어집니다.',
    partB: 'Part B. 층 정규화 (Layer Normalization)',
    partBIntro: '층 정규화는 한 토큰의 특성 벡터 안에서 평균 μ와 분산 σ²를 구해 x̂ = (x − μ)/√(σ² + ε)로 맞춘 뒤, 학습되는 γ와 β로 다시 스케일하고 이동합니다. 입력 분포가 어디에 있든 출력의 평균은 β, 표준편차는 거의 γ가 됩니다.',
    figB0: '그림 B0. 무작위 잔차 층을 깊게 쌓을 때 활성값 표준편차(로그 눈금). 정규화가 없으면 가중치 스케일에 따라 폭발하거나 줄어들고, 정규화를 넣으면 안정됩니다.',
    figB2: '그림 B2. 토큰 벡터 하나가 층 정규화의 네 단계를 지나는 모습. γ와 β를 움직여 보세요.',
    figB3: '그림 B3. BatchNorm은 배치 축(열)으로, LayerNorm은 특성 축(행)으로 통계를 냅니다. 배치 크기를 1로 줄이면 학습 모드의 BatchNorm이 무너집니다.',
    figB1: '그림 B1. 층 정규화 시뮬레이터. N(μ, σ²)에서 뽑은 H개의 특성을 정규화하기 전과 후의 히스토그램, 측정된 평균과 표준편차, 그리고 공식의 네 단계를 실제 숫자로 보여 줍니다.',
    footer: '모든 값은 posnorm의 C 커널(WebAssembly SIMD128)이 계산합니다.',
    engine: (simd) => (simd ? '지금 SIMD128 빌드로 실행 중입니다.' : '이 브라우저는 SIMD를 지원하지 않아 스칼라 빌드로 실행 중입니다.'),
  },
  en: {
    title: 'Positional Encoding & Layer Normalization',
    series: 'AI Architecture Series 06 · interactive figures',
    intro: 'Attention in a Transformer cannot see the order of its inputs. Positional encoding adds a distinct pattern of waves to every position so that order becomes visible, and layer normalization keeps the scale of activations steady through deep stacks. Every figure below is computed in your browser by WebAssembly kernels.',
    partA: 'Part A. Positional Encoding',
    partAIntro: 'Sinusoidal positional encoding gives each dimension pair i a frequency ω_i = base^(−2i/d_model); at position pos the even dimension holds sin(pos·ω_i) and the odd one cos(pos·ω_i). Early dimensions change quickly, late ones very slowly.',
    figA0: 'Figure A0. Self-attention does not know order. Move the tokens: without positional encoding each token\'s output is the same wherever it stands (permutation equivariance); with PE added it changes with the order.',
    figA3: 'Figure A3. Four reasons for sines and cosines: values stay in [−1, 1], every position gets a different vector, PE(pos+k) is a rotation R(k) of PE(pos), and the pattern goes on past the training length.',
    figA4: 'Figure A4. Four ways to give position with the same seq_len, d_model and base: sinusoidal, a learned table, RoPE and ALiBi. The RoPE score depends only on the distance, not on where it starts.',
    figA5: 'Figure A5. What happens to RoPE past the training length L? Left: the wavelength of every dimension pair — some pairs complete a full turn inside L and some never do, the fact every long-context rule is built on. Right: the score of a fixed q and k against relative distance; without scaling it leaves the range seen in training past L, and the PI, NTK, YaRN and Llama 3 rules keep it inside.',
    figA1: 'Figure A1. The encoding matrix PE[seq_len × d_model]: embedding dimension across, position down. Move the cursor to read the exact value of a cell, whether it is a sin or a cos, and the wavelength of its frequency.',
    figA2: 'Figure A2. sin and cos of one dimension pair against position: the fastest reference pair (i = 0) above, the chosen pair i below. As i grows the wavelength 2π·base^(2i/d_model) grows.',
    partB: 'Part B. Layer Normalization',
    partBIntro: 'Layer normalization takes the mean μ and variance σ² within one token\'s feature vector, rescales to x̂ = (x − μ)/√(σ² + ε), and then scales and shifts with the learned γ and β. Wherever the input sits, the output has mean β and a standard deviation of almost γ.',
    figB0: 'Figure B0. Standard deviation of activations (log scale) through a deep stack of random residual layers. Without normalisation it explodes or shrinks with the weight scale; with it, it stays steady.',
    figB2: 'Figure B2. One token vector through the four steps of layer normalization. Move γ and β.',
    figB3: 'Figure B3. BatchNorm takes its statistics down the batch axis (columns), LayerNorm along the feature axis (rows). Shrink the batch to 1 and BatchNorm in training mode breaks down.',
    figB1: 'Figure B1. LayerNorm simulator: histograms of H features drawn from N(μ, σ²) before and after normalization, their measured mean and standard deviation, and the four steps of the formula with live numbers.',
    footer: 'Every value is computed by posnorm\'s C kernels (WebAssembly SIMD128).',
    engine: (simd) => (simd ? 'Running the SIMD128 build.' : 'This browser has no WebAssembly SIMD; running the scalar build.'),
  },
};
