/* global window, document */
// Set the colour theme before the first paint (no flash). An external file because
// our Content-Security-Policy blocks inline scripts. The choice is made in the top menu.
(function () {
  try {
    var stored = localStorage.getItem('sagan-theme');
    var dark =
      stored === 'dark' ||
      (stored !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.setAttribute('data-theme', dark ? 'dark' : 'light');
  } catch {
    document.documentElement.setAttribute('data-theme', 'light');
  }
})();
