/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* The layers of test builds (tests/tests.mk: build/tests/damoctl-test). */
#ifndef DAMOS_TEST_LAYERS_H
#define DAMOS_TEST_LAYERS_H

#include "internal.h"

extern const struct damos_layer damos_test_layer_fault;
extern const struct damos_layer damos_test_layer_race;
/*
 * emul.c: the fake kernel of fake trees; _auto stacks it only where the
 * interface's directory is not on its kernel filesystem.
 */
extern const struct damos_layer damos_test_layer_fake_kernel;
extern const struct damos_layer damos_test_layer_fake_kernel_auto;

#endif
