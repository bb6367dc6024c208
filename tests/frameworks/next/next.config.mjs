// A static export (next build writes out/), as a blog on Next.js would deploy.
export default { output: 'export', images: { unoptimized: true } };
