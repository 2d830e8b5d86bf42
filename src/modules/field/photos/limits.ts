// How large a photo or phone video may be (document 3, Photos).
/** Largest image accepted (document 3: "up to 15 MB"). */
export const IMAGE_MAX_BYTES = 15 * 1024 * 1024;
/** Largest phone video accepted (our choice: a few minutes of 1080p phone video). */
export const VIDEO_MAX_BYTES = 200 * 1024 * 1024;
