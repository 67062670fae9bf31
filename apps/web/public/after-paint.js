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
