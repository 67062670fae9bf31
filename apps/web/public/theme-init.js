/* global window, document, Element */
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

// A server-rendered page's buttons do nothing until the app has taken the page over (its
// markup has no handlers yet). A tap or a form's submit meanwhile is kept here, by the
// element's place among its kind in #root, and done again by main.tsx on the app's same
// element; main.tsx then ends the list, so from then on nothing is kept. Here, and not in
// after-paint.js, because this script runs before the page's first paint, which is the moment
// a visitor can first tap.
(function () {
  var early = [];
  window.__saganEarly = early;
  function keep(e, selector, kind) {
    var root = document.getElementById('root');
    var el = e.target instanceof Element ? e.target.closest(selector) : null;
    if (window.__saganEarly !== early || !root || !el || !root.contains(el)) return;
    e.preventDefault();
    early.push({ kind: kind, at: [].indexOf.call(root.querySelectorAll(selector), el) });
  }
  document.addEventListener(
    'click',
    function (e) {
      keep(e, 'button', 'click');
    },
    true,
  );
  // A form submitted by its button is its button's click; this is Enter in a form that has none.
  document.addEventListener(
    'submit',
    function (e) {
      keep(e, 'form', 'submit');
    },
    true,
  );
})();
