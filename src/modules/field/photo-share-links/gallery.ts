// The photo gallery the photo pages share (photo report, chosen photos): each photo's thumbnail
// linking to the full image, its title, caption and the day it was taken in the workspace's time
// zone. Every image is a short-lived signed link (images.ts), never a permanent one. A video, or a
// photo with no thumbnail (an HEIC the server could not decode), shows a link to open it instead.
import type { SharedPhoto } from './shared.ts';
import type { Storage } from '#platform/storage/storage.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { html, type Html } from '#platform/html.ts';
import { pageImageUrl } from '#pages/images.ts';

const dayFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
});

function takenOn(takenAt: string, timezone: string): Html {
  const { date } = storedToLocal(takenAt, timezone);
  return html`<time datetime="${date}">Taken ${dayFormat.format(new Date(`${date}T00:00:00Z`))}</time>`;
}

export interface Gallery {
  body: Html;
  /** The signed links the page shows (for its Content-Security-Policy). */
  images: string[];
}

export async function photoGallery(
  storage: Storage,
  photos: readonly SharedPhoto[],
  origin: string,
  timezone: string,
  empty: string,
): Promise<Gallery> {
  if (photos.length === 0) return { body: html`<p class="muted">${empty}</p>`, images: [] };
  const images: string[] = [];
  const cards = await Promise.all(
    photos.map(async (photo) => {
      const full = await pageImageUrl(storage, photo.storage_key, origin, photo.content_type);
      const label = photo.title ?? photo.caption ?? (photo.is_video ? 'Site video' : 'Site photo');
      let picture: Html;
      if (photo.thumbnail_key !== null && photo.is_video === 0) {
        const thumbnail = await pageImageUrl(storage, photo.thumbnail_key, origin, 'image/jpeg');
        images.push(thumbnail);
        picture = html`<a href="${full}"><img src="${thumbnail}" alt="${label}"></a>`;
      } else {
        picture = html`<a class="open" href="${full}">${photo.is_video ? 'Play video' : 'Open photo'}</a>`;
      }
      return html`<li class="card photo">${picture}<div class="text">${
        photo.title ? html`<h3>${photo.title}</h3>` : null
      }${photo.caption ? html`<p>${photo.caption}</p>` : null}<p class="muted">${takenOn(photo.taken_at, timezone)}</p></div></li>`;
    }),
  );
  return {
    body: html`<p class="muted">${photos.length} ${photos.length === 1 ? 'photo' : 'photos'}</p><ul class="grid gallery">${cards}</ul>`,
    images,
  };
}
