import { useEffect, useState } from 'react';

/** Seconds left of a countdown that ticks once a second; `start(n)` (re)starts it. */
export function useCountdown() {
  const [secondsLeft, setSecondsLeft] = useState(0);
  const running = secondsLeft > 0;

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setSecondsLeft((seconds) => Math.max(0, seconds - 1)), 1000);
    return () => clearInterval(timer);
  }, [running]);

  return { secondsLeft, start: setSecondsLeft };
}
