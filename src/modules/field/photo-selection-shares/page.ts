import { photosOfSelection, visitSelection } from './visit.ts';
import { originOf } from '#platform/routes.ts';
import { sendGone, sendUnknownLink } from '#pages/gone.ts';
import { type PageModule, TokenParams } from '#pages/pages.ts';
import { photoGallery } from '#field/photo-share-links/gallery.ts';
import { sendPage } from '#pages/respond.ts';

export const photoSelectionPage: PageModule = (app, env) => {
  app.get('/share/photo-selections/:token', { schema: { params: TokenParams } }, async (request, reply) => {
    const visit = await visitSelection(env.database, request.params.token);
    if (visit.state === 'unknown') return sendUnknownLink(reply);
    if (visit.state === 'gone') return sendGone(reply, visit.why);
    const { share, sender } = visit;
    const gallery = await photoGallery(
      env.deps.storage,
      await photosOfSelection(env.database, share),
      originOf(request),
      sender.timezone,
      'These photos are no longer shared.',
    );
    return sendPage(reply, {
      title: share.title ?? `Photos: ${sender.jobName}`,
      from: sender.firmName,
      body: gallery.body,
      images: gallery.images,
    });
  });
};
