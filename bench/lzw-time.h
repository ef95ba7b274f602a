// giflib for bench/lzw-time.swift.
#include <gif_lib.h>
