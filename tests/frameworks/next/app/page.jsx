// A server component: it imports a figure module on the server (which must
// not touch the DOM) and renders the client component that uses the figures.
import { configure, PosnormHeatmap } from 'posnorm/figures/heatmap';
import Figures from './figures.jsx';

configure({});

export default function Page() {
  return (
    <main>
      <h1>posnorm in Next.js</h1>
      <p id="server-check">{typeof PosnormHeatmap}</p>
      <Figures />
    </main>
  );
}
