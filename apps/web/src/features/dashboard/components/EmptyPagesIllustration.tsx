/** A page being drawn, with a spark: the dashboard's empty state (decorative). */
export function EmptyPagesIllustration() {
  return (
    <svg width="160" height="120" viewBox="0 0 160 120" aria-hidden="true" focusable="false">
      <ellipse cx="80" cy="108" rx="56" ry="7" fill="#f1f3f5" />
      <rect x="38" y="14" width="84" height="90" rx="10" fill="#f3f0ff" stroke="#b197fc" strokeWidth="2" />
      <rect x="50" y="26" width="60" height="26" rx="5" fill="#d0bfff" />
      <rect x="50" y="60" width="44" height="6" rx="3" fill="#b197fc" />
      <rect x="50" y="72" width="60" height="5" rx="2.5" fill="#e5dbff" />
      <rect x="50" y="84" width="60" height="10" rx="4" fill="#7048e8" />
      <circle cx="124" cy="22" r="14" fill="#7048e8" />
      <path d="M124 15v14M117 22h14" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
