/* qbank-cores: prints the round trip of a cache line between two of this
 * machine's processors as qbank lint measures it (tools/lib/core/cores.h),
 * in nanoseconds (0: not measurable), and whether lint counts the cores as
 * near, for the benchmark's table (make bench). Not installed. */
#include <stdio.h>

#include "../lib/core/cores.h"

int main(void)
{
	unsigned long ns = qb_cores_round_trip_ns();

	printf("%lu %s\n", ns, ns != 0 && ns < QB_CORES_NEAR_NS ? "near" : "far");
	return 0;
}
