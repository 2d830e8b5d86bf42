// The imagery settings: none unless GROUNDWORK_IMAGERY_URL or GROUNDWORK_PREMIUM_IMAGERY_URL names
// an XYZ template; a template without {z}, {x}, {y} or a cache size that is no number stops the start.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#src/config.ts';
import { buildDeps } from '#platform/deps.ts';
import { noImagery } from '#platform/imagery/imagery.ts';
import { envVars } from '#test/helpers/env-vars.ts';

const set = envVars(['GROUNDWORK_IMAGERY_URL', 'GROUNDWORK_PREMIUM_IMAGERY_URL', 'GROUNDWORK_IMAGERY_CACHE_MB']);

describe('imagery settings', () => {
  it('default to none, with a 200 MB tile cache for when a server is named', () => {
    set({});
    const imagery = loadConfig().imagery;
    expect(imagery).toEqual({ standardUrl: null, premiumUrl: null, cacheMb: 200 });
    expect(buildDeps({ imagerySettings: imagery }).imagery).toBe(noImagery);
  });

  it('name a tile server per source, and a cache size (0 keeps no tiles)', () => {
    set({
      GROUNDWORK_IMAGERY_URL: 'https://tiles.example/{z}/{x}/{y}.jpg?key=abc',
      GROUNDWORK_PREMIUM_IMAGERY_URL: 'https://premium.example/tiles/{z}/{y}/{x}',
      GROUNDWORK_IMAGERY_CACHE_MB: '0',
    });
    const imagery = loadConfig().imagery;
    expect(imagery).toEqual({
      standardUrl: 'https://tiles.example/{z}/{x}/{y}.jpg?key=abc',
      premiumUrl: 'https://premium.example/tiles/{z}/{y}/{x}',
      cacheMb: 0,
    });
    expect(buildDeps({ imagerySettings: imagery }).imagery.sources).toEqual({ standard: true, premium: true });
    set({ GROUNDWORK_PREMIUM_IMAGERY_URL: 'https://premium.example/{z}/{x}/{y}.png' });
    expect(buildDeps({ imagerySettings: loadConfig().imagery }).imagery.sources).toEqual({
      standard: false,
      premium: true,
    });
  });

  it('stop the start on a template that is no tile URL or a cache size that is no whole number', () => {
    set({ GROUNDWORK_IMAGERY_URL: 'https://tiles.example/{z}/{x}.png' });
    expect(() => loadConfig()).toThrow(/GROUNDWORK_IMAGERY_URL must contain \{y\}/);
    set({ GROUNDWORK_PREMIUM_IMAGERY_URL: 'tiles.example/{z}/{x}/{y}' });
    expect(() => loadConfig()).toThrow(/GROUNDWORK_PREMIUM_IMAGERY_URL is not a URL/);
    set({ GROUNDWORK_IMAGERY_URL: 'ftp://user:secret@tiles.example/{z}/{x}/{y}' });
    expect(() => loadConfig()).toThrow(/must be an http:\/\/ or https:\/\/ URL, got "ftp:\/\/\*\*\*@tiles/);
    set({ GROUNDWORK_IMAGERY_CACHE_MB: '-5' });
    expect(() => loadConfig()).toThrow(/GROUNDWORK_IMAGERY_CACHE_MB must be a whole number/);
  });
});
