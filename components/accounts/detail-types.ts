/**
 * Shapes the detail panels receive from the GET route handlers: the Broker client's parsed types, restated
 * here because those live in server-only modules. Money and quantities are decimal strings.
 */
export interface CurrencyAssetView {
  currency: string;
  cash_balance?: string;
  settled_cash?: string;
  unsettled_cash?: string;
  market_value?: string;
  buying_power?: string;
  unrealized_profit_loss?: string;
  init_margin?: string;
}

export interface BalanceView {
  total_asset_currency?: string;
  total_asset?: string;
  total_cash_balance?: string;
  total_market_value?: string;
  total_unrealized_profit_loss?: string;
  init_margin?: string;
  account_currency_assets: CurrencyAssetView[];
}

export interface PositionLegView {
  symbol?: string;
  leg_id?: string;
  quantity?: string;
  option_type?: string;
  option_expire_date?: string;
  option_exercise_price?: string;
  option_contract_multiplier?: string;
  expiration_type?: string;
}

export interface PositionView {
  position_id: string;
  symbol: string;
  market?: string;
  currency?: string;
  quantity: string;
  instrument_type?: string;
  option_strategy?: string;
  last_price?: string;
  cost_price?: string;
  market_value?: string;
  unrealized_profit_loss?: string;
  legs?: PositionLegView[];
}

export interface ActivityView {
  id: string;
  activity_type: string;
  activity_sub_type?: string;
  currency?: string;
  market?: string;
  symbol?: string;
  quantity?: string;
  net_amount?: string;
  biz_time?: string;
  trade_date?: string;
  description?: string;
}

export interface ActivitiesPage {
  items: ActivityView[];
  nextCursor?: string;
}
