import { lookupLayout } from "@/app/(desk)/guarded-layout";
import { findInstrument, type InstrumentParams } from "./lookup";

export default lookupLayout("market:read", ({ market, symbol }: InstrumentParams) => findInstrument(market, symbol));
