import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { BillingAccount } from '../accounts/billing-account.entity';

/** Billing's stored plan of a user (null: no plan change ever happened for them). */
@Injectable()
export class ReadPlanService {
  constructor(private readonly em: EntityManager) {}

  find(userId: number): Promise<BillingAccount | null> {
    return this.em.fork().findOne(BillingAccount, { userId });
  }
}
