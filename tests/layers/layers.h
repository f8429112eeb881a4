/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* The layers of test builds (tests/tests.mk: build/tests/damoctl-test). */
#ifndef DAMOS_TEST_LAYERS_H
#define DAMOS_TEST_LAYERS_H

#include "internal.h"

extern const struct damos_layer damos_test_layer_fault;
extern const struct damos_layer damos_test_layer_race;

#endif
