// Regenerates the installable-app icons from the logo: node --import tsx scripts/make-icons.ts
// The PNGs are committed; run this only when the logo changes.
import fs from 'node:fs';
import sharp from 'sharp';

const out = new URL('../apps/web/public/icons/', import.meta.url).pathname;
const logo = fs.readFileSync(new URL('../apps/web/public/favicon.svg', import.meta.url));
// A maskable icon is cropped to a circle by some launchers: full-bleed colour, logo in the middle.
const maskable = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#14213d"/>` +
    `<circle cx="32" cy="32" r="12" fill="none" stroke="#fca311" stroke-width="4.5"/><circle cx="32" cy="32" r="4.5" fill="#fca311"/></svg>`,
);

fs.mkdirSync(out, { recursive: true });
for (const size of [192, 512]) {
  await sharp(logo, { density: 72 * (size / 64) })
    .resize(size, size)
    .png()
    .toFile(`${out}icon-${size}.png`);
  await sharp(maskable, { density: 72 * (size / 64) })
    .resize(size, size)
    .png()
    .toFile(`${out}maskable-${size}.png`);
}
await sharp(logo, { density: 72 * (180 / 64) })
  .resize(180, 180)
  .flatten({ background: '#14213d' })
  .png()
  .toFile(`${out}apple-touch-icon.png`);
console.log(`icons written to ${out}`);
