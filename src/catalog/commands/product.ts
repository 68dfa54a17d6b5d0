import type { Command } from '@commander-js/extra-typings';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import { addConnectionOptions, connect, type ConnectionOptions } from '../connection.js';
import { productId } from '../validate.js';
import { SANDBOX_PRODUCT } from '../examples.js';

export async function run(ctx: Context, opts: ConnectionOptions, id: string): Promise<void> {
  const product = productId(id);
  const client = await connect(ctx, opts);
  await ctx.output.object(await client.product(product));
}

export function register(parent: Command, bind: Binder): void {
  const command = parent
    .command('product')
    .summary('show one product')
    .description('Show one product as the product list shows it: title, brand, lowest price, stores, latest observation.')
    .argument('<id>', 'canonical product id');
  examples(addConnectionOptions(command).action(bind(run)), [
    `trident catalog product ${SANDBOX_PRODUCT}`,
    `trident catalog product ${SANDBOX_PRODUCT} -o json`,
  ]);
}
