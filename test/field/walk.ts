// The field-capture part of the isolation and permission walk (test/helpers/walk/kit.ts): photo
// tags, assessment services, site assessments and pins, photos and their share links (on the CRM
// walk's job), files on the job and the customer, the Company Library's folders and files,
// assessment report links, and the capital plan link of the CRM walk's site (capital planning
// turned on for it).
import { expect } from 'vitest';
import { ok } from '#test/helpers/records.ts';
import { pdf, postForm, uploadJobFile } from './files/upload.ts';
import { image, uploadPhoto } from './photos/upload.ts';
import type { AreaWalk } from '#test/helpers/walk/kit.ts';

export const fieldWalk: AreaWalk = {
  area: 'field',
  async provision({ t, w, label, ids }) {
    const photoTag = (
      await ok(w.api.post('/v1/photo-tags', { name: `${label} Pothole`, color: '#aa0000', description: 'Deep holes' }))
    ).data;
    const spareTag = (await ok(w.api.post('/v1/photo-tags', { name: `${label} Spare` }))).data;
    const service = (await ok(w.api.get('/v1/assessment-services'))).data[0];
    const assessment = (await ok(w.api.post('/v1/site-assessments', { job_id: ids.job, title: `${label} walk` }))).data;
    const at = { latitude: 40, longitude: -75 };
    const pin = (
      await ok(w.api.post('/v1/assessment-pins', { ...at, job_id: ids.job, service_type_id: service.id, length_ft: 3 }))
    ).data;
    const sparePin = (await ok(w.api.post('/v1/assessment-pins', { ...at, assessment_id: assessment.id }))).data;
    const photo = (await ok(uploadPhoto(t, w, ids.job, await image('png'), { tag_ids: String(photoTag.id) }))).data;
    const sparePhoto = (await ok(uploadPhoto(t, w, ids.job, await image('png')))).data;
    await ok(w.api.post(`/v1/jobs/${ids.job}/photo-share-link`, { access_code: `${label}-code`, expires_in_days: 30 }));
    const selectionShare = (
      await ok(
        w.api.post(`/v1/jobs/${ids.job}/photo-selection-shares`, { photo_ids: [photo.id], title: `${label} picks` }),
      )
    ).data;
    const folder = (await ok(w.api.post('/v1/library-folders', { name: `${label} Safety` }))).data;
    const spareFolder = (await ok(w.api.post('/v1/library-folders', { name: `${label} Old` }))).data;
    const file = (await ok(uploadJobFile(t, w, ids.job, pdf(), `${label} plan.pdf`, { description: 'Plan' }))).data;
    const spareFile = (await ok(uploadJobFile(t, w, ids.job, pdf(), `${label} spare.pdf`))).data;
    const accountFile = (
      await ok(
        postForm(t, w.key, `/v1/client-accounts/${ids.ca}/files`, [{ name: 'file', filename: 'msa.pdf', data: pdf() }]),
      )
    ).data;
    const library = async (name: string) =>
      (
        await ok(
          postForm(t, w.key, '/v1/library-files', [
            { name: 'folder_id', value: String(folder.id) },
            { name: 'file', filename: name, data: pdf() },
          ]),
        )
      ).data;
    const libraryFile = await library(`${label} SDS.pdf`);
    const linkedFile = await library(`${label} linked.pdf`);
    await ok(w.api.post(`/v1/jobs/${ids.job}/library-files`, { file_id: linkedFile.id }));
    const assessmentLink = (
      await ok(
        w.api.post(`/v1/site-assessments/${assessment.id}/share-link`, {
          service_type_ids: [service.id],
          label: `${label} link`,
        }),
      )
    ).data;
    await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { capital_planning_enabled: true } }));
    await ok(w.api.post(`/v1/locations/${ids.loc}/plan-share-link`, {}));
    return {
      selectionShare: selectionShare.id,
      photo: photo.id,
      sparePhoto: sparePhoto.id,
      photoTag: photoTag.id,
      spareTag: spareTag.id,
      assessmentService: service.id,
      assessment: assessment.id,
      pin: pin.id,
      sparePin: sparePin.id,
      folder: folder.id,
      spareFolder: spareFolder.id,
      file: file.id,
      spareFile: spareFile.id,
      accountFile: accountFile.id,
      libraryFile: libraryFile.id,
      linkedFile: linkedFile.id,
      assessmentLink: assessmentLink.id,
    };
  },
  snapshot: (ids) => [
    '/v1/photo-tags',
    '/v1/assessment-services',
    '/v1/site-assessments',
    `/v1/site-assessments/${ids.assessment}`,
    '/v1/assessment-pins',
    `/v1/jobs/${ids.job}/photos`,
    '/v1/photos',
    `/v1/jobs/${ids.job}/photo-share-link`,
    `/v1/jobs/${ids.job}/photo-selection-shares`,
    '/v1/library-folders',
    `/v1/jobs/${ids.job}/files`,
    '/v1/files',
    `/v1/site-assessments/${ids.assessment}/share-links`,
    `/v1/locations/${ids.loc}/plan-share-link`,
  ],
  foreignIds: (a, b) => [
    { method: 'PATCH', path: `/v1/photo-tags/${a.photoTag}`, body: { name: 'Hijacked' }, error: 'Photo tag not found' },
    { method: 'DELETE', path: `/v1/photo-tags/${a.photoTag}`, error: 'Photo tag not found' },
    { method: 'GET', path: `/v1/photos/${a.photo}`, error: 'Photo not found' },
    { method: 'PATCH', path: `/v1/photos/${a.photo}`, body: { caption: 'Hijacked' }, error: 'Photo not found' },
    { method: 'DELETE', path: `/v1/photos/${a.photo}`, error: 'Photo not found' },
    { method: 'GET', path: `/v1/jobs/${a.job}/photos`, error: 'Job not found' },
    {
      method: 'POST',
      path: `/v1/jobs/${a.job}/photos`,
      body: { url: 'https://example.com/a.jpg' },
      error: 'Job not found',
    },
    { method: 'PATCH', path: `/v1/photos/${b.photo}`, body: { tag_ids: [a.photoTag] }, error: 'Photo tag not found' },
    { method: 'GET', path: `/v1/jobs/${a.job}/photo-share-link`, error: 'Job not found' },
    { method: 'POST', path: `/v1/jobs/${a.job}/photo-share-link`, body: {}, error: 'Job not found' },
    {
      method: 'PATCH',
      path: `/v1/jobs/${a.job}/photo-share-link`,
      body: { enabled: false },
      error: 'Job not found',
    },
    { method: 'GET', path: `/v1/jobs/${a.job}/photo-selection-shares`, error: 'Job not found' },
    {
      method: 'POST',
      path: `/v1/jobs/${a.job}/photo-selection-shares`,
      body: { photo_ids: [b.photo] },
      error: 'Job not found',
    },
    {
      method: 'POST',
      path: `/v1/jobs/${a.job}/photo-selection-shares/${a.selectionShare}/revoke`,
      error: 'Job not found',
    },
    {
      method: 'POST',
      path: `/v1/jobs/${b.job}/photo-selection-shares/${a.selectionShare}/revoke`,
      error: 'Photo selection share not found',
    },
    ...['GET', 'PATCH'].map((method) => ({
      method,
      path: `/v1/site-assessments/${a.assessment}`,
      body: method === 'PATCH' ? { title: 'Hijacked' } : undefined,
      error: 'Site assessment not found',
    })),
    ...['complete', 'reopen', 'duplicate'].map((action) => ({
      method: 'POST',
      path: `/v1/site-assessments/${a.assessment}/${action}`,
      error: 'Site assessment not found',
    })),
    { method: 'POST', path: '/v1/site-assessments', body: { job_id: a.job }, error: 'Job not found' },
    { method: 'GET', path: `/v1/assessment-pins/${a.pin}`, error: 'Pin not found' },
    { method: 'PATCH', path: `/v1/assessment-pins/${a.pin}`, body: { severity: 'high' }, error: 'Pin not found' },
    { method: 'DELETE', path: `/v1/assessment-pins/${a.sparePin}`, error: 'Pin not found' },
    {
      method: 'POST',
      path: `/v1/assessment-pins/${a.pin}/photos`,
      body: { url: 'https://example.com/a.jpg' },
      error: 'Pin not found',
    },
    {
      method: 'POST',
      path: '/v1/assessment-pins',
      body: { latitude: 1, longitude: 1, job_id: a.job },
      error: 'Job not found',
    },
    {
      method: 'POST',
      path: '/v1/assessment-pins',
      body: { latitude: 1, longitude: 1, assessment_id: a.assessment },
      error: 'Site assessment not found',
    },
    {
      method: 'PATCH',
      path: `/v1/library-folders/${a.folder}`,
      body: { name: 'Hijacked' },
      error: 'Library folder not found',
    },
    { method: 'DELETE', path: `/v1/library-folders/${a.spareFolder}`, error: 'Library folder not found' },
    { method: 'GET', path: `/v1/files/${a.file}`, error: 'File not found' },
    { method: 'GET', path: `/v1/files/${a.accountFile}`, error: 'File not found' },
    { method: 'GET', path: `/v1/files/${a.libraryFile}`, error: 'File not found' },
    { method: 'GET', path: `/v1/files/${a.file}/download`, error: 'File not found' },
    { method: 'PATCH', path: `/v1/files/${a.file}`, body: { description: 'Hijacked' }, error: 'File not found' },
    { method: 'DELETE', path: `/v1/files/${a.spareFile}`, error: 'File not found' },
    { method: 'DELETE', path: `/v1/files/${a.libraryFile}`, error: 'File not found' },
    {
      method: 'PATCH',
      path: `/v1/files/${b.libraryFile}`,
      body: { folder_id: a.folder },
      error: 'Library folder not found',
    },
    { method: 'GET', path: `/v1/jobs/${a.job}/files`, error: 'Job not found' },
    { method: 'POST', path: `/v1/jobs/${a.job}/files`, body: {}, error: 'Job not found' },
    { method: 'POST', path: `/v1/client-accounts/${a.ca}/files`, body: {}, error: 'Client account not found' },
    {
      method: 'POST',
      path: `/v1/jobs/${a.job}/library-files`,
      body: { file_id: b.libraryFile },
      error: 'Job not found',
    },
    {
      method: 'POST',
      path: `/v1/jobs/${b.job}/library-files`,
      body: { file_id: a.libraryFile },
      error: 'File not found',
    },
    { method: 'DELETE', path: `/v1/jobs/${a.job}/library-files/${a.linkedFile}`, error: 'Job not found' },
    {
      method: 'DELETE',
      path: `/v1/jobs/${b.job}/library-files/${a.linkedFile}`,
      error: 'File not found on this job',
    },
    {
      method: 'POST',
      path: `/v1/site-assessments/${a.assessment}/share-link`,
      body: { label: 'Hijacked' },
      error: 'Site assessment not found',
    },
    { method: 'GET', path: `/v1/site-assessments/${a.assessment}/share-links`, error: 'Site assessment not found' },
    {
      method: 'POST',
      path: `/v1/site-assessments/${a.assessment}/share-links/${a.assessmentLink}/revoke`,
      error: 'Site assessment not found',
    },
    {
      method: 'POST',
      path: `/v1/site-assessments/${b.assessment}/share-links/${a.assessmentLink}/revoke`,
      error: 'Assessment share link not found',
    },
    { method: 'GET', path: `/v1/locations/${a.loc}/plan-share-link`, error: 'Location not found' },
    ...['', '/disable', '/rotate'].map((action) => ({
      method: 'POST',
      path: `/v1/locations/${a.loc}/plan-share-link${action}`,
      error: 'Location not found',
    })),
  ],
  async lookups({ t, A, B }) {
    // B may use A's tag names: names are unique per workspace only.
    const same = await B.w.api.post('/v1/photo-tags', { name: 'A Pothole' });
    expect(same.status).toBe(201);
    const listed = (await B.w.api.get('/v1/photo-tags')).body.data.map((tag: { id: number }) => tag.id);
    expect(listed).not.toContain(A.ids.photoTag);
    // Lists filtered by A's records find nothing in B; A's service and tag name nothing in B.
    for (const path of [
      `/v1/site-assessments?job_id=${A.ids.job}`,
      `/v1/assessment-pins?job_id=${A.ids.job}`,
      `/v1/assessment-pins?assessment_id=${A.ids.assessment}`,
      `/v1/assessment-pins?service_type_id=${A.ids.assessmentService}`,
    ])
      expect((await B.w.api.get(path)).body.pagination.total, path).toBe(0);
    const at = { latitude: 1, longitude: 1, job_id: B.ids.job };
    expect(
      (await B.w.api.post('/v1/assessment-pins', { ...at, service_type_id: A.ids.assessmentService })).body,
    ).toEqual({
      error: 'Assessment service not found',
    });
    expect((await B.w.api.post('/v1/assessment-pins', { ...at, tag_type_id: A.ids.photoTag })).body).toEqual({
      error: 'Photo tag not found',
    });
    // A's photo cannot go on a link of B's job: it is not a photo of that job.
    const shared = await B.w.api.post(`/v1/jobs/${B.ids.job}/photo-selection-shares`, { photo_ids: [A.ids.photo] });
    expect(shared.status).toBe(400);
    expect(shared.body).toMatchObject({ error: 'Photo not found on this job', photo_ids: [A.ids.photo] });
    // Files listed by A's job, customer or folder: none in B; a library upload into A's folder is 404.
    for (const path of [
      `/v1/files?job_id=${A.ids.job}`,
      `/v1/files?client_account_id=${A.ids.ca}`,
      `/v1/files?folder_id=${A.ids.folder}`,
    ])
      expect((await B.w.api.get(path)).body.pagination.total, path).toBe(0);
    const upload = await postForm(t, B.w.key, '/v1/library-files', [
      { name: 'folder_id', value: String(A.ids.folder) },
      { name: 'file', filename: 'x.pdf', data: pdf() },
    ]);
    expect(upload).toMatchObject({ status: 404, body: { error: 'Library folder not found' } });
    // A's service scopes no link in B: a 400 naming it, and no link is made.
    const scoped = await B.w.api.post(`/v1/site-assessments/${B.ids.assessment}/share-link`, {
      service_type_ids: [A.ids.assessmentService],
    });
    expect(scoped.status).toBe(400);
    expect(scoped.body).toMatchObject({ code: 'unknown_service', service_type_ids: [A.ids.assessmentService] });
    expect((await B.w.api.get(`/v1/site-assessments/${B.ids.assessment}/share-links`)).body.pagination.total).toBe(1);
  },
  routes: {
    'GET /v1/assessment-services': { needs: 'read', path: () => '/v1/assessment-services' },
    'GET /v1/photo-tags': { needs: 'read', path: () => '/v1/photo-tags' },
    'POST /v1/photo-tags': { needs: 'write', path: () => '/v1/photo-tags', body: () => ({ name: 'Read-only tag' }) },
    'PATCH /v1/photo-tags/{id}': {
      needs: 'write',
      path: (a) => `/v1/photo-tags/${a.photoTag}`,
      body: () => ({ color: '#00aa00' }),
    },
    'DELETE /v1/photo-tags/{id}': { needs: 'delete', path: (a) => `/v1/photo-tags/${a.spareTag}` },
    'GET /v1/assessment-defect-types': { needs: 'read', path: () => '/v1/assessment-defect-types' },
    'GET /v1/site-assessments': { needs: 'read', path: () => '/v1/site-assessments' },
    'POST /v1/site-assessments': {
      needs: 'write',
      path: () => '/v1/site-assessments',
      body: (a) => ({ job_id: a.job }),
    },
    'GET /v1/site-assessments/{id}': { needs: 'read', path: (a) => `/v1/site-assessments/${a.assessment}` },
    'PATCH /v1/site-assessments/{id}': {
      needs: 'write',
      path: (a) => `/v1/site-assessments/${a.assessment}`,
      body: () => ({ title: 'Read-only title' }),
    },
    'POST /v1/site-assessments/{id}/complete': {
      needs: 'write',
      path: (a) => `/v1/site-assessments/${a.assessment}/complete`,
    },
    'POST /v1/site-assessments/{id}/reopen': {
      needs: 'write',
      path: (a) => `/v1/site-assessments/${a.assessment}/reopen`,
    },
    'POST /v1/site-assessments/{id}/duplicate': {
      needs: 'write',
      path: (a) => `/v1/site-assessments/${a.assessment}/duplicate`,
    },
    'GET /v1/assessment-pins': { needs: 'read', path: () => '/v1/assessment-pins' },
    'POST /v1/assessment-pins': {
      needs: 'write',
      path: () => '/v1/assessment-pins',
      body: (a) => ({ latitude: 2, longitude: 2, job_id: a.job }),
    },
    'GET /v1/assessment-pins/{id}': { needs: 'read', path: (a) => `/v1/assessment-pins/${a.pin}` },
    'PATCH /v1/assessment-pins/{id}': {
      needs: 'write',
      path: (a) => `/v1/assessment-pins/${a.pin}`,
      body: () => ({ severity: 'low' }),
    },
    'DELETE /v1/assessment-pins/{id}': { needs: 'delete', path: (a) => `/v1/assessment-pins/${a.sparePin}` },
    'POST /v1/assessment-pins/{id}/photos': {
      needs: 'write',
      path: (a) => `/v1/assessment-pins/${a.pin}/photos`,
      body: () => ({ url: 'https://example.com/site.jpg' }),
    },
    'GET /v1/jobs/{job_id}/photos': { needs: 'read', path: (a) => `/v1/jobs/${a.job}/photos` },
    'POST /v1/jobs/{job_id}/photos': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/photos`,
      body: () => ({ url: 'https://example.com/site.jpg' }),
    },
    'GET /v1/photos': { needs: 'read', path: () => '/v1/photos' },
    'GET /v1/photos/{id}': { needs: 'read', path: (a) => `/v1/photos/${a.photo}` },
    'PATCH /v1/photos/{id}': {
      needs: 'write',
      path: (a) => `/v1/photos/${a.photo}`,
      body: () => ({ caption: 'Read-only' }),
    },
    'DELETE /v1/photos/{id}': { needs: 'delete', path: (a) => `/v1/photos/${a.sparePhoto}` },
    'GET /v1/jobs/{job_id}/photo-share-link': { needs: 'read', path: (a) => `/v1/jobs/${a.job}/photo-share-link` },
    'POST /v1/jobs/{job_id}/photo-share-link': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/photo-share-link`,
      body: () => ({}),
    },
    'PATCH /v1/jobs/{job_id}/photo-share-link': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/photo-share-link`,
      body: () => ({ public: true, expires_in_days: null }),
    },
    'GET /v1/jobs/{job_id}/photo-selection-shares': {
      needs: 'read',
      path: (a) => `/v1/jobs/${a.job}/photo-selection-shares`,
    },
    'POST /v1/jobs/{job_id}/photo-selection-shares': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/photo-selection-shares`,
      body: (a) => ({ photo_ids: [a.photo] }),
    },
    'POST /v1/jobs/{job_id}/photo-selection-shares/{share_id}/revoke': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/photo-selection-shares/${a.selectionShare}/revoke`,
    },
    'GET /v1/library-folders': { needs: 'read', path: () => '/v1/library-folders' },
    'POST /v1/library-folders': {
      needs: 'write',
      path: () => '/v1/library-folders',
      body: () => ({ name: 'Read-only folder' }),
    },
    'PATCH /v1/library-folders/{id}': {
      needs: 'write',
      path: (a) => `/v1/library-folders/${a.folder}`,
      body: () => ({ name: 'Read-only name' }),
    },
    'DELETE /v1/library-folders/{id}': { needs: 'delete', path: (a) => `/v1/library-folders/${a.spareFolder}` },
    'POST /v1/library-files': { needs: 'write', path: () => '/v1/library-files' },
    'GET /v1/jobs/{job_id}/files': { needs: 'read', path: (a) => `/v1/jobs/${a.job}/files` },
    'POST /v1/jobs/{job_id}/files': { needs: 'write', path: (a) => `/v1/jobs/${a.job}/files` },
    'POST /v1/client-accounts/{account_id}/files': { needs: 'write', path: (a) => `/v1/client-accounts/${a.ca}/files` },
    'GET /v1/files': { needs: 'read', path: () => '/v1/files' },
    'GET /v1/files/{id}': { needs: 'read', path: (a) => `/v1/files/${a.file}` },
    'GET /v1/files/{id}/download': { needs: 'read', path: (a) => `/v1/files/${a.file}/download`, ok: 302 },
    'PATCH /v1/files/{id}': {
      needs: 'write',
      path: (a) => `/v1/files/${a.file}`,
      body: () => ({ description: 'Read-only' }),
    },
    'DELETE /v1/files/{id}': { needs: 'delete', path: (a) => `/v1/files/${a.spareFile}` },
    'POST /v1/jobs/{job_id}/library-files': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/library-files`,
      body: (a) => ({ file_id: a.libraryFile }),
    },
    'DELETE /v1/jobs/{job_id}/library-files/{file_id}': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/library-files/${a.linkedFile}`,
    },
    'POST /v1/site-assessments/{id}/share-link': {
      needs: 'write',
      path: (a) => `/v1/site-assessments/${a.assessment}/share-link`,
      body: () => ({ label: 'Read-only' }),
    },
    'GET /v1/site-assessments/{id}/share-links': {
      needs: 'read',
      path: (a) => `/v1/site-assessments/${a.assessment}/share-links`,
    },
    'POST /v1/site-assessments/{id}/share-links/{link_id}/revoke': {
      needs: 'write',
      path: (a) => `/v1/site-assessments/${a.assessment}/share-links/${a.assessmentLink}/revoke`,
    },
    'GET /v1/locations/{id}/plan-share-link': { needs: 'read', path: (a) => `/v1/locations/${a.loc}/plan-share-link` },
    'POST /v1/locations/{id}/plan-share-link': {
      needs: 'write',
      path: (a) => `/v1/locations/${a.loc}/plan-share-link`,
    },
    'POST /v1/locations/{id}/plan-share-link/disable': {
      needs: 'write',
      path: (a) => `/v1/locations/${a.loc}/plan-share-link/disable`,
    },
    'POST /v1/locations/{id}/plan-share-link/rotate': {
      needs: 'write',
      path: (a) => `/v1/locations/${a.loc}/plan-share-link/rotate`,
    },
  },
};
