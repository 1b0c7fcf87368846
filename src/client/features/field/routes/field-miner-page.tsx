import { FieldFullLoad } from './field-full-load';

/** Console route of /field/miner/:minerId: hands over to the light field app (full page load). */
export function FieldMinerPage() {
  return <FieldFullLoad />;
}
