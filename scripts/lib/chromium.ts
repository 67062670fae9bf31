/**
 * How the e2e tests and the web bench start Chromium (Debian's, headless, in a container with
 * no sandbox or GPU and no network beyond loopback), so the bench sees what the tests see.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
