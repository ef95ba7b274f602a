#ifndef CAROUSEL_CLIBWEBP_SHIM_H
#define CAROUSEL_CLIBWEBP_SHIM_H
#include <webp/encode.h>
#include <webp/mux.h>
#include <webp/demux.h>

/* libwebp's initialisers are macros that pass the ABI version; Swift cannot import them. */
static inline int carousel_webp_config_init(WebPConfig *config) { return WebPConfigInit(config); }
static inline int carousel_webp_picture_init(WebPPicture *picture) { return WebPPictureInit(picture); }
static inline int carousel_webp_anim_encoder_options_init(WebPAnimEncoderOptions *options) {
    return WebPAnimEncoderOptionsInit(options);
}
static inline WebPAnimEncoder *carousel_webp_anim_encoder_new(int width, int height, const WebPAnimEncoderOptions *options) {
    return WebPAnimEncoderNew(width, height, options);
}
static inline int carousel_webp_anim_decoder_options_init(WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderOptionsInit(options);
}
static inline WebPAnimDecoder *carousel_webp_anim_decoder_new(const WebPData *data, const WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderNew(data, options);
}
#endif
