// The chosen-photos page (document 2, photo-selection-shares): GET /share/photo-selections/<token>
// shows the photos the link was made with that are still there and still external, in the order
// chosen, under its title and the workspace's name. A revoked or expired link answers its 410 page.
import type { FastifyRequest } from 'fastify';
import { photosOfSelection, visitSelection } from '#field/photo-selection-shares/visit.ts';
import { originOf } from '#platform/routes.ts';
import { sendGone, sendUnknownLink } from './gone.ts';
import type { PageModule } from './pages.ts';
import { photoGallery } from './photo-gallery.ts';
import { sendPage } from './respond.ts';

export const photoSelectionPage: PageModule = (app, env) => {
  app.get('/share/photo-selections/:token', async (request: FastifyRequest<{ Params: { token: string } }>, reply) => {
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
