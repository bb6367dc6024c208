// i18n/ko/waveform.js — the Korean labels of <posnorm-waveform> (figures/waveform.js), added to the
// Korean table when that module loads (../../i18n.js, addKoreanStrings); English: ../en.js.
import { sub } from '../subscript.js';

export default {
    pairIndex: '차원 인덱스 i',
    waveformPanel: (title, wavelength) => `${title} · 파장 ${wavelength}`,
    waveformReadout: (r) => `pos = ${r.pos}: sin(pos·ω₀) = ${r.ref.sin}, cos(pos·ω₀) = ${r.ref.cos}; sin(pos·ω${sub(r.i)}) = ${r.sel.sin}, cos(pos·ω${sub(r.i)}) = ${r.sel.cos}; 파장 λ${sub(r.i)} = 2π·${r.base}^(${2 * r.i}/${r.dModel}) = ${r.wavelength}`,
    waveformAlt: (s) => `위치에 따른 sin·cos 곡선: 기준 쌍 i=0(파장 2π)과 선택한 쌍 i=${s.i}(파장 ${s.wavelengthText}), d_model ${s.dModel}, base ${s.base}. 세로선은 위치 ${s.pos}를 표시합니다.`,
};
