/* global document, requestAnimationFrame */
// Decision 0013: a server-rendered page already shows the board from its HTML. The app's
// modules start after that first frame is painted, so compiling them cannot delay it; main.tsx
// then takes the page over. The server writes this tag in place of the module script.
(function () {
  var me = document.currentScript;
  var entry = me && me.getAttribute('data-entry');
  if (!entry) return;
  var preloads = (me.getAttribute('data-preload') || '').split(' ');
  var started = false;
  function start() {
    if (started) return;
    started = true;
    preloads.forEach(function (href) {
      if (!href) return;
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
    import(entry);
  }
  // requestAnimationFrame runs just before the first frame, the timeout once it is out.
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  // A tab opened in the background paints no frame: start anyway.
  setTimeout(start, 1000);
})();

// A running clock's time is not in the server's HTML: the page is cached until the clock's
// state changes, so a time there would be frozen. Its slot (as wide as any time) is filled in
// here, from the state and server time the page carries, the way the app's useGameClock
// (packages/shared/src/game-clock.ts clockDisplay) computes it, until the app takes over.
(function () {
  var states = document.getElementById('sagan-initial');
  var clock = null;
  try {
    JSON.parse((states && states.textContent) || '[]').forEach(function (s) {
      if (/^clock:/.test(s.topic) && s.data && s.data.running) clock = s.data;
    });
  } catch {
    return;
  }
  if (!clock || clock.startedAt === null) return;
  var slots = [].slice.call(document.querySelectorAll('#root [role="timer"]'));
  if (!slots.length) return;
  var offsetMs = clock.serverTime - Date.now();
  function two(n) {
    return (n < 10 ? '0' : '') + n;
  }
  function text() {
    var elapsedMs = Math.max(0, Date.now() + offsetMs - clock.startedAt);
    var s;
    if (clock.direction === 'down') {
      s = Math.max(0, Math.ceil((clock.seconds * 1000 - elapsedMs) / 1000));
    } else {
      s = clock.seconds + Math.floor(elapsedMs / 1000);
      if (clock.limit !== null) s = Math.min(s, Math.max(clock.limit, clock.seconds));
    }
    // m:ss up to 99:59, h:mm:ss past it (formatClock).
    if (s <= 99 * 60 + 59) return Math.floor(s / 60) + ':' + two(s % 60);
    return Math.floor(s / 3600) + ':' + two(Math.floor((s % 3600) / 60)) + ':' + two(s % 60);
  }
  function show() {
    var now = text();
    slots.forEach(function (slot) {
      slot.textContent = now;
      slot.setAttribute('aria-label', 'Clock ' + now);
    });
  }
  show();
  // Until the app has taken the page over (main.tsx ends #root's aria-busy): it keeps these
  // slots as its own and shows its clock in them, stopped or running.
  var root = document.getElementById('root');
  var timer = setInterval(function () {
    if (root && root.hasAttribute('aria-busy') && slots[0].isConnected) show();
    else clearInterval(timer);
  }, 250);
})();
