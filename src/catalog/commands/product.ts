import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { addConnectionOptions, connect } from '../connection.js';
import { productId } from '../validate.js';
import { SANDBOX_PRODUCT } from '../examples.js';

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('product')
      .summary('show one product')
      .description('Show one product as the product list shows it: title, brand, lowest price, stores, latest observation.')
      .argument('<id>', 'canonical product id'),
  );

export async function run(ctx: Context, opts: OptionsOf<typeof define>, id: string): Promise<void> {
  const product = productId(id);
  const client = await connect(ctx, opts);
  await ctx.output.object(await client.product(product));
}

export const { register, definition } = defineCommand({
  define,
  examples: [`trident catalog product ${SANDBOX_PRODUCT}`, `trident catalog product ${SANDBOX_PRODUCT} -o json`],
  run,
});
