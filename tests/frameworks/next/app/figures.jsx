'use client';
// A client component. React 19 hydrates server-rendered custom elements
// without setting their properties or `on…` event props (react#35446), so
// the figures get attributes (d-model, not dModel) — which server rendering
// writes and React updates after hydration — and the listener is added in
// an effect.
import { useEffect, useRef, useState } from 'react';
import 'posnorm/figures/heatmap';
import 'posnorm/figures/waveform';

export default function Figures() {
  const [dModel, setDModel] = useState(128);
  const [last, setLast] = useState('none');
  const wave = useRef(null);
  useEffect(() => {
    const el = wave.current;
    const onChange = (e) => setLast(`${e.detail.name}=${e.detail.value}`);
    el.addEventListener('posnorm-change', onChange);
    return () => el.removeEventListener('posnorm-change', onChange);
  }, []);
  return (
    <>
      <posnorm-heatmap d-model="32" seq-len="12"></posnorm-heatmap>
      <posnorm-waveform ref={wave} i="40" d-model={String(dModel)}></posnorm-waveform>
      <button id="wider" type="button" onClick={() => setDModel(256)}>d_model 256</button>
      <p id="last">{last}</p>
    </>
  );
}
