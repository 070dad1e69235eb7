/** The action's entry: reads its inputs and runs plan, apply or drift. Filled in by the action issue. */
export async function run(): Promise<void> {
  throw new Error('monsync action: not implemented yet');
}
