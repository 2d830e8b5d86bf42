// The vision endpoint's setting (platform/vision.ts): unset is the built-in detector, a URL that is
// not http(s) stops the start, and an answer is read strictly (the rest is test/condition/ratings).
import { describe, expect, it } from 'vitest';
import { readFindings, VisionFailed, visionFor } from '#platform/vision.ts';

describe('GROUNDWORK_VISION_URL', () => {
  it('unset or blank is the built-in detector; a URL is the endpoint; anything else is refused at start', () => {
    expect(visionFor(undefined)).toBeNull();
    expect(visionFor('  ')).toBeNull();
    expect(visionFor('https://vision.example/rate')).not.toBeNull();
    expect(() => visionFor('ftp://vision.example')).toThrow(/GROUNDWORK_VISION_URL must be an http\(s\) URL/);
    expect(() => visionFor('not a url')).toThrow(/GROUNDWORK_VISION_URL/);
  });

  it('reads the contract and refuses anything else', () => {
    expect(
      readFindings({
        visible_pavement_pct: 80,
        pavement_type: 'concrete',
        view: 'aerial',
        distresses: [{ type: 'linear_cracking', severity: 'low', density_pct: 12, density_unit: 'slabs' }],
      }),
    ).toEqual({
      visible_pavement_pct: 80,
      pavement_type: 'concrete',
      view: 'aerial',
      quality: null,
      confidence: null,
      limitations: [],
      distresses: [{ type: 'linear_cracking', severity: 'low', density_pct: 12, density_unit: 'slabs', where: null }],
    });
    for (const bad of [
      null,
      [],
      { visible_pavement_pct: 101, pavement_type: 'asphalt', distresses: [] },
      { visible_pavement_pct: 50, pavement_type: 'gravel', distresses: [] },
      { visible_pavement_pct: 50, pavement_type: 'asphalt' },
      {
        visible_pavement_pct: 50,
        pavement_type: 'asphalt',
        distresses: [{ type: 'potholes', severity: 'low', density_pct: -1 }],
      },
      { visible_pavement_pct: 50, pavement_type: 'asphalt', distresses: [], confidence: 2 },
    ])
      expect(() => readFindings(bad), JSON.stringify(bad)).toThrow(VisionFailed);
  });
});
