/* The one place the version is written. */
#ifndef QB_VERSION_H
#define QB_VERSION_H

#define QB_VERSION "0.1.0"
#define QB_HOMEPAGE "https://github.com/qbank/qbank"

#endif
