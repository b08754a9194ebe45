import { NotFoundNotice } from "@/components/ui/page";

export default function InstrumentNotFound() {
  return (
    <NotFoundNotice
      title="Instrument not found"
      text="The upstream knows no instrument by this symbol in this market. Check the symbol and the market (US, HK, CN)."
      href="/"
      back="Back to the desk"
    />
  );
}
