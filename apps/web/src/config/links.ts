// External links of the top menu and footer (SPEC §2). Relative ones live on our own site.
export const links = {
  about: 'https://sagan.example/about',
  apps: 'https://sagan.example/apps',
  social: 'https://twitter.com/saganscores',
  blog: '/blog/',
  privacy: '/privacy',
  terms: '/termsOfService',
  scoreGamesFree: 'https://sagan.example/apps',
  playCounterApp: 'https://sagan.example/apps#player-counter',
} as const;
