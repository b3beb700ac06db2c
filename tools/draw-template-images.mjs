#!/usr/bin/env node
/**
 * Draws the page templates' main images (libs/pages/src/templates/images/{slug}.jpg): flat illustrations in
 * the style of the example pages' pictures, made here as SVG and turned into small JPEGs by sharp. The JPEGs
 * are committed; run this again (`node tools/draw-template-images.mjs`) only to change a picture.
 *
 * No text is drawn: a picture must not depend on the fonts of the machine that draws it.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '../libs/pages/src/templates/images');
// The size of the example pages' pictures: twice the card's 420 px width, about its 260 px image height.
const W = 960;
const H = 600;

const svg = (from, to, body) => `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="${W}" height="${H}" fill="url(#bg)"/>
${body}
</svg>`;

/** Soft circles behind a picture's subject. */
const glow = (cx, cy, r, color = '#ffffff', opacity = 0.12) => `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${color}" opacity="${opacity}"/>`;
const bar = (x, y, w, color, h = 14) => `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${h / 2}" fill="${color}"/>`;
const check = (x, y, color, size = 1) =>
  `<path d="M${x} ${y + 12 * size} l${10 * size} ${10 * size} l${20 * size} -${22 * size}" fill="none" stroke="${color}" stroke-width="${7 * size}" stroke-linecap="round" stroke-linejoin="round"/>`;
/** A person from the shoulders up. */
const person = (cx, cy, skin, shirt, hair) => `<g>
<path d="M${cx - 46} ${cy + 92} a46 46 0 0 1 92 0 z" fill="${shirt}"/>
<circle cx="${cx}" cy="${cy + 12}" r="30" fill="${skin}"/>
<path d="M${cx - 31} ${cy + 8} a31 31 0 0 1 62 0 q-14 -12 -31 -10 q-17 -2 -31 10 z" fill="${hair}"/>
</g>`;
const leaf = (x, y, rotate, color, rx = 34, ry = 14) => `<ellipse cx="${x}" cy="${y}" rx="${rx}" ry="${ry}" fill="${color}" transform="rotate(${rotate} ${x} ${y})"/>`;

const IMAGES = {
  // A tablet showing the ebook's cover beside a stack of books, and a download badge.
  'ebook-download': svg('#2dd4bf', '#0f766e', `
${glow(480, 300, 260)}
<rect x="220" y="400" width="250" height="42" rx="6" fill="#fde68a"/><rect x="236" y="412" width="150" height="8" rx="4" fill="#b45309" opacity=".5"/>
<rect x="240" y="358" width="220" height="42" rx="6" fill="#fb7185"/><rect x="256" y="370" width="120" height="8" rx="4" fill="#9f1239" opacity=".45"/>
<rect x="210" y="316" width="240" height="42" rx="6" fill="#e0f2fe"/><rect x="226" y="328" width="160" height="8" rx="4" fill="#0369a1" opacity=".45"/>
<rect x="470" y="120" width="250" height="340" rx="26" fill="#134e4a"/>
<rect x="488" y="140" width="214" height="300" rx="10" fill="#ffffff"/>
<rect x="488" y="140" width="214" height="120" rx="10" fill="#ccfbf1"/><rect x="488" y="220" width="214" height="40" fill="#ccfbf1"/>
<ellipse cx="595" cy="226" rx="44" ry="12" fill="#f59e0b"/><rect x="551" y="206" width="88" height="20" fill="#f59e0b"/><ellipse cx="595" cy="206" rx="44" ry="12" fill="#fbbf24"/>
<ellipse cx="595" cy="190" rx="44" ry="12" fill="#f59e0b"/><rect x="551" y="170" width="88" height="20" fill="#f59e0b"/><ellipse cx="595" cy="170" rx="44" ry="12" fill="#fde68a"/>
${bar(512, 284, 150, '#0f766e', 16)}${bar(512, 314, 110, '#5eead4', 12)}
${bar(512, 350, 166, '#e2e8f0', 10)}${bar(512, 372, 140, '#e2e8f0', 10)}${bar(512, 394, 156, '#e2e8f0', 10)}
<circle cx="724" cy="440" r="46" fill="#f59e0b"/><path d="M724 416 v40 m-18 -16 l18 18 l18 -18" fill="none" stroke="#ffffff" stroke-width="9" stroke-linecap="round" stroke-linejoin="round"/>
`),

  // A clipboard with three of four steps ticked, and a small house.
  'free-checklist': svg('#60a5fa', '#1d4ed8', `
${glow(470, 300, 250)}
<rect x="330" y="90" width="300" height="400" rx="22" fill="#1e3a8a"/>
<rect x="350" y="112" width="260" height="360" rx="12" fill="#ffffff"/>
<rect x="420" y="72" width="120" height="48" rx="14" fill="#94a3b8"/><circle cx="480" cy="88" r="9" fill="#1e3a8a"/>
${[0, 1, 2, 3].map((i) => {
  const y = 160 + i * 76;
  const done = i < 3;
  return `<rect x="380" y="${y}" width="40" height="40" rx="9" fill="${done ? '#22c55e' : '#ffffff'}" stroke="${done ? '#22c55e' : '#cbd5e1'}" stroke-width="4"/>
${done ? check(386, y + 6, '#ffffff', 0.9) : ''}${bar(440, y + 6, [130, 110, 140, 96][i], done ? '#cbd5e1' : '#1d4ed8', 12)}${bar(440, y + 26, [80, 100, 70, 120][i], '#e2e8f0', 8)}`;
}).join('\n')}
<g transform="translate(640 330)"><path d="M0 70 L70 14 L140 70 V150 H0 Z" fill="#fde68a"/><path d="M-10 74 L70 8 L150 74" fill="none" stroke="#f97316" stroke-width="14" stroke-linecap="round" stroke-linejoin="round"/>
<rect x="54" y="96" width="34" height="54" rx="4" fill="#f97316"/><rect x="16" y="88" width="26" height="24" rx="3" fill="#60a5fa"/><rect x="100" y="88" width="26" height="24" rx="3" fill="#60a5fa"/></g>
`),

  // A laptop with a live presenter and a slide, chat bubbles beside it.
  'webinar-signup': svg('#a78bfa', '#6d28d9', `
${glow(450, 290, 270)}
<rect x="190" y="120" width="520" height="320" rx="22" fill="#1e1b4b"/>
<rect x="210" y="140" width="480" height="280" rx="10" fill="#f5f3ff"/>
<rect x="230" y="160" width="250" height="240" rx="10" fill="#ddd6fe"/>
${person(355, 240, '#fcd34d', '#7c3aed', '#4c1d95')}
<rect x="246" y="172" width="66" height="26" rx="13" fill="#ef4444"/><circle cx="264" cy="185" r="6" fill="#ffffff"/>${bar(276, 180, 26, '#ffffff', 10)}
<rect x="500" y="160" width="170" height="240" rx="10" fill="#ffffff"/>
${bar(518, 180, 110, '#6d28d9', 14)}
<rect x="522" y="320" width="22" height="60" rx="4" fill="#c4b5fd"/><rect x="556" y="290" width="22" height="90" rx="4" fill="#a78bfa"/><rect x="590" y="250" width="22" height="130" rx="4" fill="#7c3aed"/><rect x="624" y="220" width="22" height="160" rx="4" fill="#5b21b6"/>
<path d="M150 440 H750 l-40 36 H190 Z" fill="#312e81"/>
<g transform="translate(716 120)"><rect width="140" height="62" rx="20" fill="#ffffff"/><path d="M30 60 l-6 24 l28 -24 z" fill="#ffffff"/>${bar(22, 18, 96, '#c4b5fd', 10)}${bar(22, 36, 64, '#ddd6fe', 10)}</g>
<g transform="translate(744 220)"><rect width="120" height="56" rx="20" fill="#fde68a"/><path d="M96 54 l6 22 l-28 -22 z" fill="#fde68a"/>${bar(20, 16, 80, '#f59e0b', 10)}${bar(20, 32, 52, '#fbbf24', 10)}</g>
`),

  // Three people at a café table, coffee in front, a map pin above.
  'local-meetup': svg('#f9a8d4', '#be185d', `
${glow(480, 320, 270)}
${person(330, 190, '#fcd34d', '#0ea5e9', '#78350f')}
${person(480, 160, '#a16207', '#f59e0b', '#1c1917')}
${person(630, 190, '#fde68a', '#22c55e', '#b45309')}
<rect x="200" y="330" width="560" height="34" rx="17" fill="#831843"/>
<rect x="250" y="364" width="24" height="170" fill="#831843"/><rect x="686" y="364" width="24" height="170" fill="#831843"/>
${[330, 480, 630].map((x) => `<path d="M${x - 26} 290 h52 l-6 42 h-40 z" fill="#ffffff"/><path d="M${x + 24} 300 q20 2 14 18 q-4 8 -16 8" fill="none" stroke="#ffffff" stroke-width="6"/><path d="M${x - 8} 270 q8 -10 0 -20 M${x + 8} 274 q8 -10 0 -20" fill="none" stroke="#fdf2f8" stroke-width="5" stroke-linecap="round" opacity=".8"/>`).join('')}
<g transform="translate(720 60)"><path d="M50 0 a50 50 0 0 1 50 50 c0 40 -50 90 -50 90 c0 0 -50 -50 -50 -90 a50 50 0 0 1 50 -50 z" fill="#fde047"/><circle cx="50" cy="50" r="20" fill="#be185d"/></g>
`),

  // A studio microphone between sound waves, a waveform below.
  'podcast-updates': svg('#fcd34d', '#b45309', `
${glow(480, 260, 230)}
<rect x="420" y="90" width="120" height="200" rx="60" fill="#1f2937"/>
${[0, 1, 2, 3, 4].map((i) => `<line x1="436" y1="${130 + i * 26}" x2="524" y2="${130 + i * 26}" stroke="#4b5563" stroke-width="6" stroke-linecap="round"/>`).join('')}
<path d="M390 220 a90 90 0 0 0 180 0" fill="none" stroke="#1f2937" stroke-width="16" stroke-linecap="round"/>
<rect x="472" y="310" width="16" height="70" fill="#1f2937"/><rect x="410" y="376" width="140" height="18" rx="9" fill="#1f2937"/>
${[1, 2, 3].map((i) => `<path d="M${380 - i * 38} ${190 - i * 30} a${60 + i * 40} ${60 + i * 40} 0 0 0 0 ${60 + i * 60}" fill="none" stroke="#ffffff" stroke-width="10" stroke-linecap="round" opacity="${1 - i * 0.25}"/>
<path d="M${580 + i * 38} ${190 - i * 30} a${60 + i * 40} ${60 + i * 40} 0 0 1 0 ${60 + i * 60}" fill="none" stroke="#ffffff" stroke-width="10" stroke-linecap="round" opacity="${1 - i * 0.25}"/>`).join('')}
${Array.from({ length: 27 }, (_, i) => {
  const h = [18, 34, 52, 30, 70, 44, 24, 60, 86, 50, 32, 64, 40, 90, 46, 28, 74, 56, 36, 80, 42, 22, 58, 34, 48, 26, 16][i];
  return `<rect x="${222 + i * 19}" y="${500 - h / 2}" width="10" height="${h}" rx="5" fill="#78350f" opacity=".8"/>`;
}).join('')}
`),

  // A vinyl record sliding out of its sleeve under a night sky, notes floating up.
  'music-fan-list': svg('#4338ca', '#1e1b4b', `
${[[120, 90], [210, 470], [820, 80], [860, 420], [700, 520], [90, 300], [600, 60], [330, 60]].map(([x, y], i) => `<circle cx="${x}" cy="${y}" r="${i % 3 === 0 ? 4 : 2.5}" fill="#ffffff" opacity=".7"/>`).join('')}
${glow(520, 300, 250, '#f59e0b', 0.12)}
<circle cx="560" cy="300" r="190" fill="#111827"/>
${[170, 150, 130, 110, 90].map((r) => `<circle cx="560" cy="300" r="${r}" fill="none" stroke="#374151" stroke-width="3"/>`).join('')}
<circle cx="560" cy="300" r="62" fill="#f59e0b"/><circle cx="560" cy="300" r="12" fill="#111827"/>
<path d="M480 200 a120 120 0 0 1 150 -20" fill="none" stroke="#ffffff" stroke-width="5" opacity=".25" stroke-linecap="round"/>
<rect x="220" y="110" width="380" height="380" rx="8" fill="url(#sleeve)"/>
<defs><linearGradient id="sleeve" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f472b6"/><stop offset="1" stop-color="#7c3aed"/></linearGradient></defs>
<circle cx="410" cy="300" r="110" fill="#fde68a" opacity=".9"/><path d="M220 380 q95 -70 190 -10 t190 -20 V490 H220 Z" fill="#4c1d95" opacity=".85"/>
<g fill="#fde68a"><circle cx="800" cy="200" r="16"/><rect x="812" y="130" width="6" height="72"/><path d="M812 130 q30 8 34 36 q-12 -18 -34 -16 z"/>
<circle cx="742" cy="150" r="12"/><rect x="751" y="96" width="5" height="56"/></g>
`),

  // An easel holding a watercolour landscape, a palette and a brush beside it.
  'course-waitlist': svg('#67e8f9', '#0e7490', `
${glow(460, 280, 260)}
<path d="M330 520 L420 120 M590 520 L500 120 M460 110 V540" stroke="#78350f" stroke-width="16" stroke-linecap="round"/>
<rect x="290" y="130" width="340" height="260" rx="6" fill="#fffbeb"/>
<circle cx="540" cy="200" r="40" fill="#fb923c" opacity=".7"/>
<path d="M300 320 q70 -80 150 -20 t170 -30 V380 H300 Z" fill="#22d3ee" opacity=".55"/>
<path d="M300 350 q90 -60 170 -10 t150 -10 V380 H300 Z" fill="#0891b2" opacity=".6"/>
<path d="M330 280 q40 -40 80 -8" fill="none" stroke="#a78bfa" stroke-width="16" stroke-linecap="round" opacity=".5"/>
<rect x="270" y="384" width="380" height="22" rx="6" fill="#92400e"/>
<g transform="translate(640 360) rotate(-12)"><path d="M0 60 c0 -60 70 -80 140 -60 c50 14 40 60 10 60 c-20 0 -30 10 -16 30 c14 22 -30 40 -70 34 C30 118 0 100 0 60 z" fill="#fef3c7"/>
<circle cx="40" cy="40" r="13" fill="#ef4444"/><circle cx="80" cy="22" r="13" fill="#3b82f6"/><circle cx="118" cy="30" r="13" fill="#f59e0b"/><circle cx="40" cy="84" r="13" fill="#22c55e"/><circle cx="80" cy="96" r="10" fill="#a855f7"/></g>
<g transform="translate(200 420) rotate(-40)"><rect x="0" y="-7" width="150" height="14" rx="7" fill="#b45309"/><rect x="150" y="-9" width="26" height="18" fill="#cbd5e1"/><path d="M176 -9 q40 9 0 18 z" fill="#0e7490"/></g>
`),

  // A phone with a growing plant, a progress ring and ticked habits.
  'app-beta': svg('#86efac', '#15803d', `
${glow(480, 300, 260)}
<rect x="370" y="60" width="220" height="470" rx="34" fill="#14532d"/>
<rect x="384" y="78" width="192" height="434" rx="24" fill="#f0fdf4"/>
<rect x="448" y="86" width="64" height="12" rx="6" fill="#14532d"/>
<circle cx="480" cy="210" r="76" fill="none" stroke="#bbf7d0" stroke-width="12"/>
<path d="M480 134 a76 76 0 1 1 -72 100" fill="none" stroke="#16a34a" stroke-width="12" stroke-linecap="round"/>
<path d="M456 240 h48 l-8 32 h-32 z" fill="#c2410c"/>
<path d="M480 240 V190" stroke="#15803d" stroke-width="6"/>
${leaf(462, 196, -30, '#22c55e', 22, 10)}${leaf(498, 182, 30, '#16a34a', 24, 11)}${leaf(470, 168, -60, '#4ade80', 18, 8)}
${[0, 1, 2].map((i) => `<rect x="404" y="${320 + i * 60}" width="152" height="46" rx="12" fill="#ffffff"/><circle cx="428" cy="${343 + i * 60}" r="13" fill="${i < 2 ? '#22c55e' : '#e2e8f0'}"/>${i < 2 ? check(420, 333 + i * 60, '#ffffff', 0.5) : ''}${bar(450, 337 + i * 60, [80, 64, 90][i], '#cbd5e1', 12)}`).join('')}
${leaf(270, 430, -40, '#bbf7d0', 60, 24)}${leaf(320, 470, 20, '#4ade80', 56, 22)}${leaf(690, 440, 40, '#bbf7d0', 60, 24)}${leaf(640, 480, -20, '#4ade80', 56, 22)}
<g fill="#fef08a"><path d="M700 140 l8 20 l20 8 l-20 8 l-8 20 l-8 -20 l-20 -8 l20 -8 z"/><path d="M250 200 l6 14 l14 6 l-14 6 l-6 14 l-6 -14 l-14 -6 l14 -6 z"/></g>
`),

  // A bowl of pasta seen from above, with basil, tomatoes and a fork.
  'recipe-newsletter': svg('#fde68a', '#f97316', `
${glow(480, 300, 250)}
<circle cx="480" cy="300" r="200" fill="#ffffff"/>
<circle cx="480" cy="300" r="168" fill="#fef3c7"/>
${[0, 1, 2, 3, 4, 5].map((i) => `<path d="M${380 + i * 12} ${250 + (i % 2) * 20} q40 -40 90 0 t90 0" fill="none" stroke="#fbbf24" stroke-width="12" stroke-linecap="round"/>`).join('')}
${[0, 1, 2, 3].map((i) => `<path d="M${390 + i * 14} ${330 + (i % 2) * 14} q50 30 100 0 t80 6" fill="none" stroke="#f59e0b" stroke-width="12" stroke-linecap="round"/>`).join('')}
<circle cx="430" cy="300" r="26" fill="#dc2626"/><circle cx="540" cy="260" r="22" fill="#ef4444"/><circle cx="520" cy="360" r="24" fill="#dc2626"/>
<path d="M424 280 q6 -8 14 -2" stroke="#fecaca" stroke-width="4" fill="none"/>
${leaf(470, 250, -20, '#16a34a', 26, 12)}${leaf(500, 320, 40, '#15803d', 24, 11)}${leaf(450, 350, -50, '#22c55e', 22, 10)}
<g transform="translate(720 120)"><rect x="18" y="90" width="16" height="290" rx="8" fill="#e5e7eb"/><path d="M0 0 v70 a26 26 0 0 0 52 0 v-70" fill="none" stroke="#e5e7eb" stroke-width="10"/><path d="M17 0 v60 M35 0 v60" stroke="#e5e7eb" stroke-width="8"/></g>
<g transform="translate(190 120)"><rect x="18" y="110" width="16" height="270" rx="8" fill="#e5e7eb"/><path d="M26 0 c30 20 30 100 0 120 z" fill="#e5e7eb"/></g>
${leaf(230, 500, -20, '#16a34a', 40, 16)}${leaf(270, 520, 30, '#22c55e', 34, 14)}<circle cx="750" cy="520" r="24" fill="#dc2626"/><circle cx="790" cy="500" r="18" fill="#ef4444"/>
`),

  // A coupon ticket with a percent sign beside a sourdough loaf and a croissant.
  'shop-discount': svg('#fda4af', '#be123c', `
${glow(480, 300, 260)}
<g transform="translate(170 150) rotate(-6)">
<path d="M0 0 H380 a0 0 0 0 0 0 0 V110 a30 30 0 0 0 0 60 V280 H0 V170 a30 30 0 0 0 0 -60 Z" fill="#ffffff"/>
<line x1="270" y1="20" x2="270" y2="260" stroke="#fda4af" stroke-width="6" stroke-dasharray="14 12"/>
<circle cx="110" cy="100" r="30" fill="none" stroke="#be123c" stroke-width="16"/><circle cx="190" cy="180" r="30" fill="none" stroke="#be123c" stroke-width="16"/>
<line x1="200" y1="80" x2="100" y2="200" stroke="#be123c" stroke-width="18" stroke-linecap="round"/>
${bar(300, 110, 50, '#fecdd3', 14)}${bar(300, 140, 40, '#fecdd3', 14)}${bar(300, 170, 54, '#fecdd3', 14)}
</g>
<g transform="translate(560 300)"><ellipse cx="110" cy="80" rx="150" ry="92" fill="#b45309"/><ellipse cx="110" cy="70" rx="142" ry="80" fill="#d97706"/>
<path d="M30 40 q30 -20 60 0 M90 30 q30 -20 60 0 M150 40 q30 -20 60 0" fill="none" stroke="#fde68a" stroke-width="10" stroke-linecap="round"/></g>
<g transform="translate(620 110)"><path d="M0 80 q20 -80 110 -80 q90 0 110 80 q-40 20 -110 20 q-70 0 -110 -20 z" fill="#f59e0b"/>
<path d="M60 20 q10 40 0 76 M110 4 v96 M160 20 q-10 40 0 76" fill="none" stroke="#b45309" stroke-width="8" stroke-linecap="round"/></g>
`),

  // A calendar with a booked day, a video call bubble and a potted plant.
  'free-consultation': svg('#bef264', '#4d7c0f', `
${glow(470, 300, 260)}
<rect x="200" y="110" width="340" height="360" rx="24" fill="#ffffff"/>
<rect x="200" y="110" width="340" height="80" rx="24" fill="#166534"/><rect x="200" y="160" width="340" height="30" fill="#166534"/>
<rect x="256" y="88" width="16" height="48" rx="8" fill="#14532d"/><rect x="468" y="88" width="16" height="48" rx="8" fill="#14532d"/>
${Array.from({ length: 15 }, (_, i) => {
  const x = 228 + (i % 5) * 58;
  const y = 214 + Math.floor(i / 5) * 76;
  const booked = i === 7;
  return `<rect x="${x}" y="${y}" width="44" height="56" rx="10" fill="${booked ? '#84cc16' : '#f1f5f9'}"/>${booked ? check(x + 6, y + 12, '#ffffff', 0.85) : ''}`;
}).join('')}
<g transform="translate(560 150)"><rect width="220" height="160" rx="22" fill="#ecfccb"/><path d="M40 158 l-8 40 l40 -40 z" fill="#ecfccb"/>
<rect x="18" y="18" width="88" height="124" rx="12" fill="#ffffff"/><rect x="114" y="18" width="88" height="124" rx="12" fill="#ffffff"/>
<circle cx="62" cy="66" r="20" fill="#fbbf24"/><path d="M30 136 a32 32 0 0 1 64 0 z" fill="#0ea5e9"/>
<circle cx="158" cy="66" r="20" fill="#a16207"/><path d="M126 136 a32 32 0 0 1 64 0 z" fill="#16a34a"/></g>
<g transform="translate(640 370)"><path d="M10 60 h100 l-12 90 h-76 z" fill="#c2410c"/><rect y="50" width="120" height="20" rx="6" fill="#9a3412"/>
${leaf(40, 20, -50, '#22c55e', 40, 14)}${leaf(82, 10, 50, '#16a34a', 42, 15)}${leaf(60, -14, -90, '#4ade80', 36, 13)}</g>
`),

  // Young trees on green hills under the sun, a heart and a spade.
  'volunteer-signup': svg('#6ee7b7', '#047857', `
<circle cx="730" cy="140" r="70" fill="#fef08a"/>${glow(730, 140, 110, '#fef08a', 0.3)}
<path d="M0 420 q240 -120 480 -20 t480 -40 V600 H0 Z" fill="#065f46"/>
<path d="M0 470 q260 -80 520 0 t440 -20 V600 H0 Z" fill="#064e3b"/>
${[[190, 330, 70], [330, 300, 90], [600, 340, 64], [760, 330, 80]].map(([x, y, r]) => `<rect x="${x - 8}" y="${y}" width="16" height="${r + 50}" fill="#78350f"/><circle cx="${x}" cy="${y - r / 3}" r="${r}" fill="#22c55e"/><circle cx="${x - r / 3}" cy="${y}" r="${r * 0.7}" fill="#16a34a"/><circle cx="${x + r / 3}" cy="${y - 4}" r="${r * 0.6}" fill="#4ade80"/>`).join('')}
<path d="M480 300 c-40 -40 -100 -10 -80 40 c14 34 80 70 80 70 c0 0 66 -36 80 -70 c20 -50 -40 -80 -80 -40 z" fill="#f43f5e"/>
<g transform="translate(450 440) rotate(20)"><rect x="-6" y="-100" width="12" height="110" rx="6" fill="#a16207"/><rect x="-22" y="-116" width="44" height="16" rx="8" fill="#a16207"/><path d="M-26 10 h52 v30 q-26 40 -52 0 z" fill="#94a3b8"/></g>
`),

  // A petition on a clipboard with signatures, a pen, and a zebra crossing below.
  petition: svg('#fdba74', '#c2410c', `
${glow(480, 260, 240)}
<rect x="0" y="470" width="960" height="130" fill="#374151"/>
${Array.from({ length: 8 }, (_, i) => `<rect x="${230 + i * 64}" y="490" width="36" height="90" rx="4" fill="#f9fafb"/>`).join('')}
<rect x="340" y="70" width="280" height="380" rx="20" fill="#7c2d12"/>
<rect x="358" y="92" width="244" height="340" rx="10" fill="#ffffff"/>
<rect x="420" y="54" width="120" height="44" rx="14" fill="#94a3b8"/>
${bar(382, 120, 150, '#c2410c', 16)}${bar(382, 150, 196, '#fed7aa', 10)}${bar(382, 170, 176, '#fed7aa', 10)}
${[0, 1, 2, 3].map((i) => `<path d="M386 ${232 + i * 50} q14 -24 26 0 t26 0 q10 -20 22 -4 t30 4" fill="none" stroke="#1e3a8a" stroke-width="4" stroke-linecap="round"/><line x1="382" y1="${246 + i * 50}" x2="578" y2="${246 + i * 50}" stroke="#e5e7eb" stroke-width="3"/>`).join('')}
<g transform="translate(640 300) rotate(35)"><rect x="-10" y="-150" width="20" height="150" rx="6" fill="#1d4ed8"/><path d="M-10 0 h20 l-10 26 z" fill="#fde68a"/><rect x="-10" y="-150" width="20" height="26" rx="6" fill="#1e3a8a"/></g>
<g transform="translate(170 150)"><rect x="-6" y="60" width="12" height="260" fill="#9ca3af"/><circle cx="0" cy="60" r="62" fill="#ffffff"/><circle cx="0" cy="60" r="54" fill="none" stroke="#dc2626" stroke-width="14"/>
${bar(-22, 46, 44, '#111827', 10)}${bar(-22, 66, 44, '#111827', 10)}</g>
`),
};

mkdirSync(OUT, { recursive: true });
for (const [slug, source] of Object.entries(IMAGES)) {
  const file = join(OUT, `${slug}.jpg`);
  const info = await sharp(Buffer.from(source)).flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true }).toFile(file);
  console.log(`${slug}.jpg ${info.width}x${info.height} ${Math.round(info.size / 1024)} KB`);
}
