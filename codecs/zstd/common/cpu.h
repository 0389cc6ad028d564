/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* cpu.h — run-time choice of BMI2 code paths (variable shifts without the CL register) on x86-64. */
#ifndef SQ_ZSTD_COMMON_CPU_H
#define SQ_ZSTD_COMMON_CPU_H

/* ZS_HAVE_BMI2_PATH: the compiler can build BMI2 clones of hot loops; ZS_TARGET_BMI2 marks
 * such a clone. The clone is only called when zs_cpu_has_bmi2() says the CPU has it. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ZS_HAVE_BMI2_PATH 1
#define ZS_TARGET_BMI2 __attribute__((target("bmi2")))
static inline int zs_cpu_has_bmi2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("bmi2") ? 1 : 0;
}
#else
#define ZS_HAVE_BMI2_PATH 0
#define ZS_TARGET_BMI2
static inline int zs_cpu_has_bmi2(void)
{
	return 0;
}
#endif

#endif
