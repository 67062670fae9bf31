/**
 * Ref callback that focuses an element when it appears, e.g. the first button of a confirmation
 * that opens on a click. Used instead of `autoFocus`: React focuses such elements itself, but
 * under preact/compat `autoFocus` is only the HTML attribute, which browsers ignore for elements
 * inserted after the page has loaded (docs/decisions/0012). A module-level function, so its
 * identity never changes and it runs once per mount, not on every render.
 */
export function focusOnMount(el: HTMLElement | null): void {
  el?.focus();
}
